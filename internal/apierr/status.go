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
		return withReason(e.Code, e.Message)
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

func withReason(c Code, message string) *status.Status {
	st := status.New(GRPCCode(c), Truncate(message, MaxMessageBytes))
	detailed, err := st.WithDetails(&errdetails.ErrorInfo{Reason: Name(c), Domain: Domain})
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
	if name, ok := reason(st); ok {
		if c, known := Parse(name); known {
			return c, st.Message()
		}
	}
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
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == Domain {
			return info.GetReason(), true
		}
	}
	return "", false
}
