package apierr

import (
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
)

const enumPrefix = "ERROR_CODE_"

// The catalogue is read once from the proto enum: its value names are the
// wire codes and its http_status options the statuses, so the Go side cannot
// drift from the proto.
var (
	names    = map[Code]string{}
	statuses = map[Code]int{}
	byName   = map[string]Code{}
)

func init() {
	values := errorsv1.ErrorCode(0).Descriptor().Values()
	for i := 0; i < values.Len(); i++ {
		v := values.Get(i)
		code := Code(v.Number())
		if code == errorsv1.ErrorCode_ERROR_CODE_UNSPECIFIED {
			continue
		}
		name := strings.TrimPrefix(string(v.Name()), enumPrefix)
		status, _ := proto.GetExtension(v.Options(), optionsv1.E_HttpStatus).(int32)
		if status < 400 || status > 599 {
			panic(fmt.Sprintf("apierr: error code %s has no http_status option", v.Name()))
		}
		names[code] = name
		statuses[code] = int(status)
		byName[name] = code
	}
}

// Name is the code as clients see it, e.g. "NOT_FOUND".
func Name(c Code) string {
	if n, ok := names[c]; ok {
		return n
	}
	return names[Internal]
}

// Parse looks a wire code up.
func Parse(name string) (Code, bool) {
	c, ok := byName[name]
	return c, ok
}

// HTTPStatus is the status the code is answered with.
func HTTPStatus(c Code) int {
	if s, ok := statuses[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Codes lists every catalogued code.
func Codes() []Code {
	out := make([]Code, 0, len(names))
	for c := range names {
		out = append(out, c)
	}
	return out
}

// GRPCCode is the gRPC code that carries a catalogued code to gRPC callers.
func GRPCCode(c Code) codes.Code {
	switch HTTPStatus(c) {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		return codes.InvalidArgument
	case http.StatusUnauthorized:
		return codes.Unauthenticated
	case http.StatusForbidden:
		return codes.PermissionDenied
	case http.StatusNotFound:
		return codes.NotFound
	case http.StatusConflict:
		return codes.Aborted
	case http.StatusUnprocessableEntity:
		return codes.FailedPrecondition
	case http.StatusTooManyRequests:
		return codes.ResourceExhausted
	case http.StatusNotImplemented:
		return codes.Unimplemented
	case http.StatusBadGateway, http.StatusServiceUnavailable:
		return codes.Unavailable
	case http.StatusGatewayTimeout:
		return codes.DeadlineExceeded
	default:
		return codes.Internal
	}
}
