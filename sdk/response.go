package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// Response is a complete HTTP answer from the API.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Envelope is the JSON body of every answer: on success `success` is true with
// `data` (and `meta` for lists); on failure `success` is false with `error`
// and `requestId`.
type Envelope struct {
	Success   bool            `json:"success"`
	Data      json.RawMessage `json:"data,omitempty"`
	Meta      *Meta           `json:"meta,omitempty"`
	Error     *ErrorBody      `json:"error,omitempty"`
	RequestID string          `json:"requestId,omitempty"`
}

// Meta is the pagination block of list answers.
type Meta struct {
	Page       int    `json:"page"`
	Limit      int    `json:"limit"`
	Total      int    `json:"total"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// ErrorBody is the `error` object of a failure envelope.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// APIError is a failure answered by the API. Clients branch on Code; the
// message may change between versions.
type APIError struct {
	Status    int
	Code      string
	Message   string
	RequestID string
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("sdk: %d %s", e.Status, e.Code)
	if e.Code == "" {
		s = fmt.Sprintf("sdk: %d %s", e.Status, http.StatusText(e.Status))
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RequestID != "" {
		s += " (request " + e.RequestID + ")"
	}
	return s
}

// ErrorCode returns the API error code carried by err, or "" when err is not
// (and does not wrap) an *APIError.
func ErrorCode(err error) string {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Code
	}
	return ""
}

// OK reports whether the status is 2xx.
func (r *Response) OK() bool { return r.Status >= 200 && r.Status < 300 }

// Envelope parses the body as the API envelope. A body that is not a JSON
// object with a boolean `success` is an error.
func (r *Response) Envelope() (*Envelope, error) {
	var probe struct {
		Success *bool `json:"success"`
	}
	if err := json.Unmarshal(r.Body, &probe); err != nil || probe.Success == nil {
		return nil, fmt.Errorf("sdk: %d response is not the JSON envelope: %q", r.Status, snippet(r.Body))
	}
	var env Envelope
	if err := json.Unmarshal(r.Body, &env); err != nil {
		return nil, fmt.Errorf("sdk: decoding envelope: %w", err)
	}
	return &env, nil
}

// Decode unmarshals the envelope's data into dataOut (nil skips it). A
// failure envelope is returned as *APIError. A body that is not an envelope is
// an *APIError without a code when the status is not 2xx (a proxy's error
// page, say), and a plain error otherwise.
func (r *Response) Decode(dataOut any) error {
	_, err := r.decode(dataOut)
	return err
}

// DecodeList is Decode for list answers; it also returns the meta block (the
// zero Meta when the answer has none).
func (r *Response) DecodeList(dataOut any) (Meta, error) {
	env, err := r.decode(dataOut)
	if err != nil || env.Meta == nil {
		return Meta{}, err
	}
	return *env.Meta, nil
}

func (r *Response) decode(dataOut any) (*Envelope, error) {
	env, err := r.Envelope()
	if err != nil {
		if !r.OK() {
			return nil, &APIError{Status: r.Status, Message: snippet(r.Body), RequestID: r.Header.Get(HeaderRequestID)}
		}
		return nil, err
	}
	if !env.Success {
		ae := &APIError{Status: r.Status, RequestID: env.RequestID}
		if env.Error != nil {
			ae.Code, ae.Message = env.Error.Code, env.Error.Message
		}
		if ae.RequestID == "" {
			ae.RequestID = r.Header.Get(HeaderRequestID)
		}
		return env, ae
	}
	if dataOut != nil && len(env.Data) > 0 {
		if err := json.Unmarshal(env.Data, dataOut); err != nil {
			return env, fmt.Errorf("sdk: decoding data: %w", err)
		}
	}
	return env, nil
}

// snippet shortens a body for an error message.
func snippet(b []byte) string {
	const max = 200
	b = bytes.TrimSpace(b)
	if len(b) <= max {
		return string(b)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

// jsonMarshal encodes v without HTML escaping, so the bytes sent are the
// JSON a partner would write by hand.
func jsonMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
