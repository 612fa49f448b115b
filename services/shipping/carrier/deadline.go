package carrier

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// DefaultDeadline bounds one courier call when the caller names none: a
// booking answers in well under a second on a healthy courier, and a partner
// waiting on POST /orders/{id}/shipment must get its 504 before the
// gateway's own timeout.
const DefaultDeadline = 8 * time.Second

// WithDeadline returns c with every call bounded by d (DefaultDeadline when
// d <= 0), or by the caller's deadline when that is sooner. A call that runs
// out of time answers ErrTimeout whatever the courier's client returned, so
// the mapping to UPSTREAM_TIMEOUT is made here once. A caller's own
// cancellation stays context.Canceled.
func WithDeadline(c Carrier, d time.Duration) Carrier {
	if d <= 0 {
		d = DefaultDeadline
	}
	return deadlined{next: c, d: d}
}

type deadlined struct {
	next Carrier
	d    time.Duration
}

func (w deadlined) Book(ctx context.Context, req BookRequest) (Booking, error) {
	ctx, cancel := context.WithTimeout(ctx, w.d)
	defer cancel()
	b, err := w.next.Book(ctx, req)
	return b, timedOut(ctx, "book", err)
}

func (w deadlined) Void(ctx context.Context, req VoidRequest) error {
	ctx, cancel := context.WithTimeout(ctx, w.d)
	defer cancel()
	return timedOut(ctx, "void", w.next.Void(ctx, req))
}

func (w deadlined) Track(ctx context.Context, req TrackRequest) ([]Event, error) {
	ctx, cancel := context.WithTimeout(ctx, w.d)
	defer cancel()
	ev, err := w.next.Track(ctx, req)
	return ev, timedOut(ctx, "track", err)
}

func (w deadlined) LabelData(ctx context.Context, req LabelRequest) (Label, error) {
	ctx, cancel := context.WithTimeout(ctx, w.d)
	defer cancel()
	l, err := w.next.LabelData(ctx, req)
	return l, timedOut(ctx, "label data", err)
}

// timedOut turns a failure caused by the call's deadline into ErrTimeout;
// other errors pass unchanged.
func timedOut(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrTimeout) {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("carrier %s: %w (%v)", op, ErrTimeout, err)
	}
	return err
}
