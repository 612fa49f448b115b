// Package apierr is the platform's one error vocabulary. Domain code returns
// *Error values carrying a catalogued code; core rewrites every error into a
// gRPC status with a google.rpc.ErrorInfo whose reason is the code; the
// gateway's error writer turns the reason back into the HTTP status and the
// spec's error body. Internal error text never crosses that boundary.
package apierr

import (
	"errors"
	"fmt"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
)

// Code is a catalogued error code.
type Code = errorsv1.ErrorCode

// The codes the platform's own Go code names most often.
const (
	ValidationError           = errorsv1.ErrorCode_ERROR_CODE_VALIDATION_ERROR
	InvalidJSON               = errorsv1.ErrorCode_ERROR_CODE_INVALID_JSON
	BadRequest                = errorsv1.ErrorCode_ERROR_CODE_BAD_REQUEST
	InvalidRequest            = errorsv1.ErrorCode_ERROR_CODE_INVALID_REQUEST
	CategoryNotFound          = errorsv1.ErrorCode_ERROR_CODE_CATEGORY_NOT_FOUND
	NotFound                  = errorsv1.ErrorCode_ERROR_CODE_NOT_FOUND
	PayloadTooLarge           = errorsv1.ErrorCode_ERROR_CODE_PAYLOAD_TOO_LARGE
	RateLimited               = errorsv1.ErrorCode_ERROR_CODE_RATE_LIMITED
	SandboxOnly               = errorsv1.ErrorCode_ERROR_CODE_SANDBOX_ONLY
	NotImplemented            = errorsv1.ErrorCode_ERROR_CODE_NOT_IMPLEMENTED
	Internal                  = errorsv1.ErrorCode_ERROR_CODE_INTERNAL_ERROR
	Unauthorized              = errorsv1.ErrorCode_ERROR_CODE_UNAUTHORIZED
	MissingNonce              = errorsv1.ErrorCode_ERROR_CODE_MISSING_NONCE
	InvalidNonce              = errorsv1.ErrorCode_ERROR_CODE_INVALID_NONCE
	NonceReused               = errorsv1.ErrorCode_ERROR_CODE_NONCE_REUSED
	InvalidSignature          = errorsv1.ErrorCode_ERROR_CODE_INVALID_SIGNATURE
	TimestampExpired          = errorsv1.ErrorCode_ERROR_CODE_TIMESTAMP_EXPIRED
	InvalidCredentials        = errorsv1.ErrorCode_ERROR_CODE_INVALID_CREDENTIALS
	HMACVersionDeprecated     = errorsv1.ErrorCode_ERROR_CODE_HMAC_VERSION_DEPRECATED
	SellerTokenRequired       = errorsv1.ErrorCode_ERROR_CODE_SELLER_TOKEN_REQUIRED
	Forbidden                 = errorsv1.ErrorCode_ERROR_CODE_FORBIDDEN
	InvalidTransition         = errorsv1.ErrorCode_ERROR_CODE_INVALID_TRANSITION
	OrderNotCancellable       = errorsv1.ErrorCode_ERROR_CODE_ORDER_NOT_CANCELLABLE
	WebhookSubscriptionExists = errorsv1.ErrorCode_ERROR_CODE_WEBHOOK_SUBSCRIPTION_EXISTS
	ProductUnderReview        = errorsv1.ErrorCode_ERROR_CODE_PRODUCT_UNDER_REVIEW
	ProductHasActiveOrders    = errorsv1.ErrorCode_ERROR_CODE_PRODUCT_HAS_ACTIVE_ORDERS
	ConcurrentModification    = errorsv1.ErrorCode_ERROR_CODE_CONCURRENT_MODIFICATION
	Conflict                  = errorsv1.ErrorCode_ERROR_CODE_CONFLICT
	Maintenance               = errorsv1.ErrorCode_ERROR_CODE_MAINTENANCE
	ServiceUnavailable        = errorsv1.ErrorCode_ERROR_CODE_SERVICE_UNAVAILABLE
	UpstreamTimeout           = errorsv1.ErrorCode_ERROR_CODE_UPSTREAM_TIMEOUT
	UpstreamError             = errorsv1.ErrorCode_ERROR_CODE_UPSTREAM_ERROR
	// The seller authorization flow's.
	AuthCodeUsed             = errorsv1.ErrorCode_ERROR_CODE_AUTH_CODE_USED
	AuthCodeExpired          = errorsv1.ErrorCode_ERROR_CODE_AUTH_CODE_EXPIRED
	InvalidAuthorizationCode = errorsv1.ErrorCode_ERROR_CODE_INVALID_AUTHORIZATION_CODE
	TokenRevoked             = errorsv1.ErrorCode_ERROR_CODE_TOKEN_REVOKED
	InvalidRefreshToken      = errorsv1.ErrorCode_ERROR_CODE_INVALID_REFRESH_TOKEN
	RefreshTokenExpired      = errorsv1.ErrorCode_ERROR_CODE_REFRESH_TOKEN_EXPIRED
	RefreshTokenReused       = errorsv1.ErrorCode_ERROR_CODE_REFRESH_TOKEN_REUSED
	ReAuthorizationRequired  = errorsv1.ErrorCode_ERROR_CODE_RE_AUTHORIZATION_REQUIRED
	RedirectURLMismatch      = errorsv1.ErrorCode_ERROR_CODE_REDIRECT_URL_MISMATCH
	SessionExpired           = errorsv1.ErrorCode_ERROR_CODE_SESSION_EXPIRED
	AccountLocked            = errorsv1.ErrorCode_ERROR_CODE_ACCOUNT_LOCKED
)

// Error is a failure with a catalogued code and a message safe to show a
// partner. The cause, if any, is for logs only.
type Error struct {
	Code    Code
	Message string
	// Fields are the body's optional reason and retryable.
	Fields Fields
	cause  error
}

// New returns an error with a code and a client-safe message.
func New(code Code, message string) *Error { return &Error{Code: code, Message: message} }

// Newf is New with a formatted message.
func Newf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an error with a code and a client-safe message that keeps
// cause for logs and errors.Is/As.
func Wrap(code Code, cause error, message string) *Error {
	return &Error{Code: code, Message: message, cause: cause}
}

func (e *Error) Error() string {
	if e.cause != nil {
		return Name(e.Code) + ": " + e.Message + ": " + e.cause.Error()
	}
	return Name(e.Code) + ": " + e.Message
}

// Unwrap exposes the cause.
func (e *Error) Unwrap() error { return e.cause }

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// CodeOf returns the code in err's chain, or INTERNAL_ERROR.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return Internal
}
