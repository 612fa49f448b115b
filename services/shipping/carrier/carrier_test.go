package carrier_test

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

func TestReferenceIsDeterministicAndShort(t *testing.T) {
	a, b := carrier.Reference("shp_01"), carrier.Reference("shp_01")
	if a != b {
		t.Fatalf("the same shipment got %q then %q", a, b)
	}
	if !regexp.MustCompile(`^MPS-[0-9A-F]{20}$`).MatchString(a) {
		t.Fatalf("reference %q: want MPS- and 20 hex digits", a)
	}
	if len(a) > 24 {
		t.Fatalf("reference %q is longer than 24 characters", a)
	}
	if carrier.Reference("shp_02") == a {
		t.Fatal("two shipments share a reference")
	}
}

// stalled answers only when its context ends, with whatever error the
// courier's client would give.
type stalled struct{ err error }

func (s stalled) Book(ctx context.Context, _ carrier.BookRequest) (carrier.Booking, error) {
	<-ctx.Done()
	return carrier.Booking{}, s.fail(ctx)
}

func (s stalled) Void(ctx context.Context, _ carrier.VoidRequest) error {
	<-ctx.Done()
	return s.fail(ctx)
}

func (s stalled) Track(ctx context.Context, _ carrier.TrackRequest) ([]carrier.Event, error) {
	<-ctx.Done()
	return nil, s.fail(ctx)
}

func (s stalled) LabelData(ctx context.Context, _ carrier.LabelRequest) (carrier.Label, error) {
	<-ctx.Done()
	return carrier.Label{}, s.fail(ctx)
}

func (s stalled) fail(ctx context.Context) error {
	if s.err != nil {
		return s.err
	}
	return ctx.Err()
}

// Every call meets its deadline and reports ErrTimeout, whether the
// courier's client returned the context's error or one of its own.
func TestWithDeadlineMapsTheDeadlineToErrTimeout(t *testing.T) {
	for _, inner := range []carrier.Carrier{stalled{}, stalled{err: errors.New("http: request canceled")}} {
		c := carrier.WithDeadline(inner, time.Millisecond)
		ctx := context.Background()
		_, errBook := c.Book(ctx, carrier.BookRequest{})
		errVoid := c.Void(ctx, carrier.VoidRequest{})
		_, errTrack := c.Track(ctx, carrier.TrackRequest{})
		_, errLabel := c.LabelData(ctx, carrier.LabelRequest{})
		for op, err := range map[string]error{"book": errBook, "void": errVoid, "track": errTrack, "label": errLabel} {
			if !errors.Is(err, carrier.ErrTimeout) {
				t.Errorf("%s: %v, want ErrTimeout", op, err)
			}
		}
	}
}

// The caller's own deadline, when sooner, bounds the call too; a caller
// that gives up is a cancellation, not the courier's timeout.
func TestWithDeadlineKeepsTheCallersContext(t *testing.T) {
	c := carrier.WithDeadline(stalled{}, time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := c.Book(ctx, carrier.BookRequest{}); !errors.Is(err, carrier.ErrTimeout) {
		t.Fatalf("caller's deadline: %v, want ErrTimeout", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if err := c.Void(ctx, carrier.VoidRequest{}); !errors.Is(err, context.Canceled) || errors.Is(err, carrier.ErrTimeout) {
		t.Fatalf("cancelled caller: %v, want context.Canceled", err)
	}
}

func TestClassifyMapsToTheSpecsCodes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		err       error
		code      string
		status    int
		reason    carrier.Reason
		retryable bool
	}{
		{"refusal", carrier.Refuse(carrier.Overweight, "too heavy"), "SHIP_FAILED", http.StatusBadRequest, carrier.Overweight, false},
		{"retryable refusal", carrier.Refuse(carrier.CapacityFull, "full"), "SHIP_FAILED", http.StatusBadRequest, carrier.CapacityFull, true},
		{"wrapped refusal", errors.Join(errors.New("ctx"), carrier.Refuse(carrier.InvalidPostalCode, "")), "SHIP_FAILED", http.StatusBadRequest, carrier.InvalidPostalCode, false},
		{"unreachable", carrier.ErrUnreachable, "UPSTREAM_ERROR", http.StatusBadGateway, "", true},
		{"timeout", carrier.ErrTimeout, "UPSTREAM_TIMEOUT", http.StatusGatewayTimeout, "", true},
		{"deadline", context.DeadlineExceeded, "UPSTREAM_TIMEOUT", http.StatusGatewayTimeout, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := carrier.Classify(tc.err)
			if !ok || apierr.Name(f.Code) != tc.code || apierr.HTTPStatus(f.Code) != tc.status ||
				f.Reason != tc.reason || f.Retryable != tc.retryable || f.Message == "" {
				t.Fatalf("Classify = %+v, %v; want %s %d reason %q retryable %v", f, ok, tc.code, tc.status, tc.reason, tc.retryable)
			}
			e, isAPI := apierr.As(carrier.APIError(tc.err))
			if !isAPI || apierr.Name(e.Code) != tc.code {
				t.Fatalf("APIError = %v; want %s", e, tc.code)
			}
			// The cause stays readable for the route that renders reason
			// and retryable.
			if r, refused := carrier.AsRefusal(e); refused != (tc.reason != "") || (refused && r.Reason != tc.reason) {
				t.Fatalf("AsRefusal(APIError) = %v, %v", r, refused)
			}
		})
	}
}

// Anything that is not the courier's failure is the platform's: internal,
// with none of its text in the message.
func TestAPIErrorHidesOtherFailures(t *testing.T) {
	err := errors.New("pq: connection to 10.0.0.7 refused")
	if _, ok := carrier.Classify(err); ok {
		t.Fatal("a store error classified as a carrier failure")
	}
	e, _ := apierr.As(carrier.APIError(err))
	if e.Code != apierr.Internal || e.Message != "internal error" {
		t.Fatalf("APIError = %v, %q", e.Code, e.Message)
	}
	if carrier.APIError(nil) != nil {
		t.Fatal("APIError(nil) is not nil")
	}
	if err := carrier.APIError(context.Canceled); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled call became %v", err)
	}
}

func TestStatuses(t *testing.T) {
	if len(carrier.Statuses()) != 9 {
		t.Fatalf("%d statuses, want 9", len(carrier.Statuses()))
	}
	for _, s := range carrier.Statuses() {
		if !s.Valid() {
			t.Errorf("%s not valid", s)
		}
	}
	if carrier.Status("SHIPPED").Valid() {
		t.Error("an order status passed as a parcel status")
	}
	for s, final := range map[carrier.Status]bool{carrier.Booked: false, carrier.OutForDelivery: false,
		carrier.DeliveryAttempted: false, carrier.Delivered: true, carrier.ReturnedToSender: true,
		carrier.Lost: true, carrier.Cancelled: true} {
		if s.Final() != final {
			t.Errorf("%s.Final() = %v", s, !final)
		}
	}
}
