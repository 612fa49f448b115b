package apierr

import (
	"context"
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Domain names the platform in google.rpc.ErrorInfo.
const Domain = "openapi.mall.ph"

// ToStatus is the one function that rewrites any error leaving core into a
// gRPC status. Catalogued errors keep their code (as ErrorInfo.reason) and
// message; context errors become their gRPC codes; anything else is an
// INTERNAL_ERROR whose text stays in the logs. Whatever produced it, the
// message is cut to MaxMessageBytes.
func ToStatus(err error) *status.Status {
	if err == nil {
		return nil
	}
	if e, ok := As(err); ok {
		return withFields(e.Code, e.Message, e.Fields)
	}
	if st, ok := status.FromError(err); ok && st.Code() != codes.Unknown {
		if _, has := reason(st); has {
			return bounded(st)
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.New(codes.Canceled, "request cancelled")
	case errors.Is(err, context.DeadlineExceeded):
		return withReason(UpstreamTimeout, "the platform did not answer in time")
	}
	return withReason(Internal, "internal error")
}

func withReason(c Code, message string) *status.Status { return withFields(c, message, Fields{}) }

func withFields(c Code, message string, f Fields) *status.Status {
	st := status.New(GRPCCode(c), Truncate(message, MaxMessageBytes))
	detailed, err := st.WithDetails(&errdetails.ErrorInfo{Reason: Name(c), Domain: Domain, Metadata: metadataOf(f)})
	if err != nil {
		return st
	}
	return detailed
}

// bounded returns st with its message cut to MaxMessageBytes, details kept.
func bounded(st *status.Status) *status.Status {
	if len(st.Message()) <= MaxMessageBytes {
		return st
	}
	p := st.Proto()
	p.Message = Truncate(p.GetMessage(), MaxMessageBytes)
	return status.FromProto(p)
}

// FromStatus reads a catalogued code and message back out of a gRPC status.
// Statuses without a platform ErrorInfo (transport failures, a core that is
// down) map to the code a partner should act on; their text is not shown.
func FromStatus(st *status.Status) (Code, string) {
	c, msg, _ := FromStatusFields(st)
	return c, msg
}

// FromStatusFields is FromStatus with the body's optional fields, read from
// the ErrorInfo's metadata.
func FromStatusFields(st *status.Status) (Code, string, Fields) {
	if info, ok := errorInfo(st); ok {
		if c, known := Parse(info.GetReason()); known {
			return c, st.Message(), fieldsOf(info)
		}
	}
	c, msg := fallback(st)
	return c, msg, Fields{}
}

// fallback maps a status without a platform ErrorInfo (transport failures,
// a core that is down) to the code a partner should act on.
func fallback(st *status.Status) (Code, string) {
	switch st.Code() {
	case codes.Unavailable:
		return ServiceUnavailable, "the platform is briefly unavailable; retry with backoff"
	case codes.DeadlineExceeded:
		return UpstreamTimeout, "the platform did not answer in time; retry with backoff"
	case codes.Unimplemented:
		return NotImplemented, "this operation is not implemented"
	case codes.Canceled:
		return BadRequest, "request cancelled"
	case codes.ResourceExhausted:
		return PayloadTooLarge, "the message is too large"
	}
	return Internal, "internal error"
}

func reason(st *status.Status) (string, bool) {
	info, ok := errorInfo(st)
	return info.GetReason(), ok
}

func errorInfo(st *status.Status) (*errdetails.ErrorInfo, bool) {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == Domain {
			return info, true
		}
	}
	return nil, false
}
