package apierr

import (
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
)

// Fields are the optional machine-readable parts of an error body, beside
// code and message: {"error":{"code","message","reason","retryable"}}. A
// zero Fields writes neither.
type Fields struct {
	// Reason is the cause within the code (SHIP_FAILED's
	// ADDRESS_UNSERVICEABLE, INVALID_PICKUP_DATE's HOLIDAY); "" when absent.
	Reason string
	// Retryable, when set, says whether the same request may pass later.
	Retryable *bool
}

// IsZero reports whether f adds nothing to the body.
func (f Fields) IsZero() bool { return f.Reason == "" && f.Retryable == nil }

// WithReason returns e with its body's reason set.
func (e *Error) WithReason(reason string) *Error {
	e.Fields.Reason = reason
	return e
}

// WithRetryable returns e with its body's retryable set.
func (e *Error) WithRetryable(retryable bool) *Error {
	e.Fields.Retryable = &retryable
	return e
}

// The ErrorInfo metadata keys that carry Fields from core to the gateway:
// encoded by metadataOf, decoded by fieldsOf, nowhere else.
const (
	metaReason    = "reason"
	metaRetryable = "retryable"
)

// metadataOf is f as ErrorInfo metadata; nil when f is zero.
func metadataOf(f Fields) map[string]string {
	if f.IsZero() {
		return nil
	}
	md := make(map[string]string, 2)
	if f.Reason != "" {
		md[metaReason] = f.Reason
	}
	if f.Retryable != nil {
		md[metaRetryable] = strconv.FormatBool(*f.Retryable)
	}
	return md
}

// fieldsOf reads Fields back out of an ErrorInfo's metadata; a value that
// does not parse is dropped (the body stays valid without it).
func fieldsOf(info *errdetails.ErrorInfo) Fields {
	md := info.GetMetadata()
	if len(md) == 0 {
		return Fields{}
	}
	var f Fields
	if r := md[metaReason]; r != "" && len(r) <= MaxReasonBytes {
		f.Reason = r
	}
	if v, err := strconv.ParseBool(md[metaRetryable]); err == nil {
		f.Retryable = &v
	}
	return f
}

// MaxReasonBytes bounds a reason on the wire: reasons are short constants.
const MaxReasonBytes = 64
