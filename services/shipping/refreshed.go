package shipping

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// refreshed is data a replica holds in memory and re-reads when its stored
// version moves (the calendar, the channel tables): reads check the version
// at most once per poll interval, only one caller reloads while the others
// keep the copy in hand, and a store that cannot be reached leaves the copy
// in hand in service (the data changes a few times a year; refusing every
// read for it would be worse). Only the first read of a replica waits for
// the store.
type refreshed[T any, V comparable] struct {
	poll    time.Duration
	version func(context.Context) (V, error)
	load    func(context.Context) (T, V, error)

	cur atomic.Pointer[held[T, V]]
	// checked is when cur's version was last compared with the store's
	// (monotonic time, never business time: it paces polling and decides
	// nothing).
	checked atomic.Int64
	reload  sync.Mutex
}

type held[T any, V comparable] struct {
	value   T
	version V
}

func newRefreshed[T any, V comparable](poll time.Duration, version func(context.Context) (V, error),
	load func(context.Context) (T, V, error)) *refreshed[T, V] {
	return &refreshed[T, V]{poll: poll, version: version, load: load}
}

var monoStart = time.Now()

// mono is monotonic nanoseconds since start.
func mono() int64 { return int64(time.Since(monoStart)) }

func (r *refreshed[T, V]) fresh() bool { return mono()-r.checked.Load() < int64(r.poll) }

// get returns the value, checked against the stored version within the
// poll interval.
func (r *refreshed[T, V]) get(ctx context.Context) (T, error) {
	cur := r.cur.Load()
	if cur != nil && r.fresh() {
		return cur.value, nil
	}
	if cur == nil {
		r.reload.Lock()
	} else if !r.reload.TryLock() {
		return cur.value, nil
	}
	defer r.reload.Unlock()
	if cur = r.cur.Load(); cur != nil && r.fresh() {
		return cur.value, nil // another caller refreshed it meanwhile
	}
	next, err := r.refresh(ctx, cur)
	if err != nil {
		if cur != nil {
			return cur.value, nil
		}
		var zero T
		return zero, err
	}
	return next.value, nil
}

// refresh compares the stored version with cur's and reloads when it moved.
func (r *refreshed[T, V]) refresh(ctx context.Context, cur *held[T, V]) (*held[T, V], error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	at := mono()
	if cur != nil {
		v, err := r.version(ctx)
		if err != nil {
			return nil, err
		}
		if v == cur.version {
			r.checked.Store(at)
			return cur, nil
		}
	}
	value, v, err := r.load(ctx)
	if err != nil {
		return nil, err
	}
	next := &held[T, V]{value: value, version: v}
	r.cur.Store(next)
	r.checked.Store(at)
	return next, nil
}

// invalidate makes the next read check the store: a replica serves its own
// edits at once.
func (r *refreshed[T, V]) invalidate() { r.checked.Store(mono() - int64(r.poll)) }
