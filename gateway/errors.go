package gateway

import (
	"net/http"
	"strconv"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/sdk"
)

// writeError is the gateway's one error writer: every failure, from the
// router's 404 to a core error, leaves through it with the spec's body
// {"success":false,"error":{"code","message"},"requestId"}.
func writeError(w http.ResponseWriter, requestID string, code apierr.Code, message string) {
	writeErrorFields(w, requestID, code, message, apierr.Fields{})
}

// writeErrorFields is writeError with the error object's optional
// machine-readable fields, written after message only when set:
// {"code","message","reason","retryable"}.
func writeErrorFields(w http.ResponseWriter, requestID string, code apierr.Code, message string, f apierr.Fields) {
	recordError(w, code)
	status := apierr.HTTPStatus(code)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	switch status {
	case http.StatusConflict, http.StatusServiceUnavailable:
		// The spec tells clients to retry these after Retry-After.
		if h.Get(sdk.HeaderRetryAfter) == "" {
			h.Set(sdk.HeaderRetryAfter, "1")
		}
	}
	b := make([]byte, 0, 128+len(message)+len(f.Reason))
	b = append(b, `{"success":false,"error":{"code":`...)
	b = wirejson.AppendString(b, apierr.Name(code))
	b = append(b, `,"message":`...)
	b = wirejson.AppendString(b, message)
	if f.Reason != "" {
		b = append(b, `,"reason":`...)
		b = wirejson.AppendString(b, f.Reason)
	}
	if f.Retryable != nil {
		b = append(b, `,"retryable":`...)
		b = strconv.AppendBool(b, *f.Retryable)
	}
	b = append(b, `},"requestId":`...)
	b = wirejson.AppendString(b, requestID)
	b = append(b, '}')
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// errorRecorder is the request's statusWriter: the code goes to the access
// log, the metrics and the span.
type errorRecorder interface{ recordError(apierr.Code) }

// recordError finds the request's statusWriter under w (grpc-gateway hands
// the error handler the writer the gateway gave it, but a wrapper may sit
// between them).
func recordError(w http.ResponseWriter, code apierr.Code) {
	for w != nil {
		if rec, ok := w.(errorRecorder); ok {
			rec.recordError(code)
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}
