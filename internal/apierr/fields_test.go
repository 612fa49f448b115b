package apierr_test

import (
	"errors"
	"testing"

	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

func TestFieldsRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		err  *apierr.Error
	}{
		{"none", apierr.New(apierr.NotFound, "order not found")},
		{"reason", apierr.New(apierr.InvalidTransition, "x").WithReason("HOLIDAY")},
		{"retryable false", apierr.New(apierr.UpstreamError, "x").WithRetryable(false)},
		{"both", apierr.Wrap(apierr.UpstreamTimeout, errors.New("cause"), "x").WithReason("CAPACITY_FULL").WithRetryable(true)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := apierr.ToStatus(c.err)
			// Through the wire form, as the gateway receives it.
			back := status.FromProto(st.Proto())
			code, msg, f := apierr.FromStatusFields(back)
			if code != c.err.Code || msg != c.err.Message {
				t.Fatalf("code/message = %v %q, want %v %q", code, msg, c.err.Code, c.err.Message)
			}
			if f.Reason != c.err.Fields.Reason {
				t.Errorf("reason = %q, want %q", f.Reason, c.err.Fields.Reason)
			}
			switch {
			case (f.Retryable == nil) != (c.err.Fields.Retryable == nil):
				t.Errorf("retryable presence = %v, want %v", f.Retryable != nil, c.err.Fields.Retryable != nil)
			case f.Retryable != nil && *f.Retryable != *c.err.Fields.Retryable:
				t.Errorf("retryable = %v, want %v", *f.Retryable, *c.err.Fields.Retryable)
			}
			if c.err.Fields.IsZero() != f.IsZero() {
				t.Errorf("zero = %v, want %v", f.IsZero(), c.err.Fields.IsZero())
			}
		})
	}
}
