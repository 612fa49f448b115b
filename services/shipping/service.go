// Package shipping is the shipping service: the read side of shipping (the
// Philippine calendar here; shipping options, pickup slots and eligible
// dates build on it). Each group of methods has its files: calendar*.go for
// the calendar, server_*.go for their gRPC faces.
package shipping

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

// DefaultPollInterval is how often a replica checks the calendar's version:
// an operator's edit reaches every replica within it (the issue allows 5 s).
const DefaultPollInterval = 2 * time.Second

// storeTimeout bounds each storage call the service makes on its own
// account (the version check and the reload), whatever the caller's
// deadline.
const storeTimeout = 3 * time.Second

// Config is what the service is built from.
type Config struct {
	Store Store
	// PollInterval is how old the in-memory calendar may grow before a read
	// checks the stored version; 0 means DefaultPollInterval.
	PollInterval time.Duration
}

// Service is the shipping service.
type Service struct {
	store Store
	poll  time.Duration

	// snap is the calendar in memory, swapped whole on reload; checked is
	// when its version was last compared with the store's (monotonic time,
	// never business time: it paces polling and decides nothing).
	snap    atomic.Pointer[calendar.Snapshot]
	checked atomic.Int64
	reload  sync.Mutex
}

// NewService returns the service over cfg.
func NewService(cfg Config) *Service {
	s := &Service{store: cfg.Store, poll: cfg.PollInterval}
	if s.poll <= 0 {
		s.poll = DefaultPollInterval
	}
	return s
}

var monoStart = time.Now()

// mono is monotonic nanoseconds since start.
func mono() int64 { return int64(time.Since(monoStart)) }

// Calendar returns the calendar snapshot, checked against the stored
// version within the poll interval: the pickup-slot code reads the
// calendar through here and keys its caches on the snapshot's Version.
// While one caller reloads, the others keep the snapshot they have; only
// the first read of a replica waits for the store.
func (s *Service) Calendar(ctx context.Context) (*calendar.Snapshot, error) {
	cur := s.snap.Load()
	if cur != nil && mono()-s.checked.Load() < int64(s.poll) {
		return cur, nil
	}
	if cur == nil {
		s.reload.Lock()
	} else if !s.reload.TryLock() {
		return cur, nil
	}
	defer s.reload.Unlock()
	if cur = s.snap.Load(); cur != nil && mono()-s.checked.Load() < int64(s.poll) {
		return cur, nil // another caller refreshed it meanwhile
	}
	next, err := s.refresh(ctx, cur)
	if err != nil {
		if cur != nil {
			// The calendar changes a few times a year: serving the copy in
			// hand while the store is unreachable beats refusing, and the
			// next read tries again.
			return cur, nil
		}
		return nil, err
	}
	return next, nil
}

// refresh compares the stored version with cur's and reloads the days when
// it moved.
func (s *Service) refresh(ctx context.Context, cur *calendar.Snapshot) (*calendar.Snapshot, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	at := mono()
	if cur != nil {
		v, err := s.store.CalendarVersion(ctx)
		if err != nil {
			return nil, err
		}
		if v == cur.Version() {
			s.checked.Store(at)
			return cur, nil
		}
	}
	days, v, err := s.store.CalendarDays(ctx)
	if err != nil {
		return nil, err
	}
	next := calendar.NewSnapshot(v, days)
	s.snap.Store(next)
	s.checked.Store(at)
	return next, nil
}

// invalidate makes the next read check the store: this replica serves its
// own edits at once.
func (s *Service) invalidate() { s.checked.Store(mono() - int64(s.poll)) }
