package carrier

import (
	"context"
	"errors"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// shipFailed is the code of a courier's refusal of a shipment.
const shipFailed = errorsv1.ErrorCode_ERROR_CODE_SHIP_FAILED

// Failure is a courier failure as a partner sees it: the catalogued code
// and, for a refusal, the machine-readable reason and whether a retry may
// pass (the `reason` and `retryable` of a SHIP_FAILED body).
type Failure struct {
	Code      apierr.Code
	Message   string
	Reason    Reason
	Retryable bool
}

// Classify maps a courier error to the spec's codes:
//
//	*Refusal       → 400 SHIP_FAILED, with Reason and Retryable
//	ErrUnreachable → 502 UPSTREAM_ERROR, retryable
//	ErrTimeout     → 504 UPSTREAM_TIMEOUT, retryable
//
// ok is false for anything else (a bug, a store error): the caller answers
// it as an internal error and its text stays in the logs.
func Classify(err error) (f Failure, ok bool) {
	if r, is := AsRefusal(err); is {
		return Failure{Code: shipFailed, Message: refusalMessage(r), Reason: r.Reason, Retryable: r.Retryable}, true
	}
	switch {
	case errors.Is(err, ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return Failure{Code: apierr.UpstreamTimeout, Retryable: true,
			Message: "the carrier did not answer in time; nothing was booked, retry with the same Idempotency-Key"}, true
	case errors.Is(err, ErrUnreachable):
		return Failure{Code: apierr.UpstreamError, Retryable: true,
			Message: "the carrier is briefly unavailable; nothing was booked, retry with backoff"}, true
	}
	return Failure{}, false
}

// APIError is err as the *apierr.Error a service returns: a classified
// courier failure keeps err as its cause (so a caller may still read the
// Refusal with AsRefusal), anything else is an internal error. A caller's
// cancellation passes unchanged: core answers it as a cancelled request.
func APIError(err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	if f, ok := Classify(err); ok {
		e := apierr.Wrap(f.Code, err, f.Message).WithRetryable(f.Retryable)
		if f.Reason != "" {
			e = e.WithReason(string(f.Reason))
		}
		return e
	}
	return apierr.Wrap(apierr.Internal, err, "internal error")
}

func refusalMessage(r *Refusal) string {
	msg := "the carrier refused the shipment (" + string(r.Reason) + ")"
	if r.Message != "" {
		msg += ": " + r.Message
	}
	return msg
}
