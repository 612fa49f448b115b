package openapi

import (
	"sort"

	"google.golang.org/protobuf/proto"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// The codes each stage of the request path can answer (docs/architecture.md,
// "Request path through the gateway", and core's interceptor chain). A
// route's codes are those of the stages its policy sends it through, plus
// the codes its method declares ((mp.errors.v1.errors)). The conformance
// test fails when a route answers a code outside its list, so a stage that
// learns a new code shows up here.
var (
	// Every route: the pre-authentication limiter, the strict query and
	// the recovery of a panic.
	everyRoute = []apierr.Code{apierr.RateLimited, apierr.ValidationError, apierr.BadRequest, apierr.Internal}
	// Signed routes: body cap, Idempotency-Key form, the HMAC checks,
	// credential lookup and admission (nonce, rate buckets), then the call
	// to core (scope, availability, deadline).
	signedRoute = []apierr.Code{
		apierr.PayloadTooLarge, apierr.HMACVersionDeprecated, apierr.MissingNonce, apierr.InvalidNonce,
		apierr.TimestampExpired, apierr.InvalidSignature, apierr.InvalidCredentials, apierr.Forbidden,
		apierr.NonceReused, apierr.ServiceUnavailable, apierr.UpstreamTimeout,
	}
	// Routes with a JSON body (not a raw one): JSON that does not parse.
	bodyRoute = []apierr.Code{apierr.InvalidJSON}
	// Routes naming a resource in the path: missing or another seller's.
	pathRoute = []apierr.Code{apierr.NotFound}
	// Seller-token routes: headers missing, token not valid for the seller
	// (404, so that nothing tells which).
	sellerRoute = []apierr.Code{apierr.SellerTokenRequired, apierr.NotFound}
	// Sandbox tools called with live credentials.
	sandboxRoute = []apierr.Code{apierr.SandboxOnly}
	// Idempotent writes: a key in flight or reused with another request.
	idempotentRoute = []apierr.Code{errorsv1.ErrorCode_ERROR_CODE_IDEMPOTENCY_KEY_REUSED, errorsv1.ErrorCode_ERROR_CODE_IDEMPOTENCY_KEY_IN_PROGRESS}
	keyRequired     = []apierr.Code{errorsv1.ErrorCode_ERROR_CODE_IDEMPOTENCY_KEY_REQUIRED}
	// The consent flow's unsigned and session routes: cross-origin
	// refusal, body cap, then the call to core (availability, deadline;
	// on the sign-in, the attempts' store).
	consentRoute = []apierr.Code{apierr.Forbidden, apierr.PayloadTooLarge, apierr.ServiceUnavailable, apierr.UpstreamTimeout}
	// Routes refused while the environment is in maintenance, right after
	// the route lookup.
	maintenanceRoute = []apierr.Code{apierr.Maintenance}
)

// RouteCodes lists the error codes a method's routes can answer, sorted by
// HTTP status, then name.
func RouteCodes(m *policy.Method) []apierr.Code {
	set := map[apierr.Code]bool{}
	add := func(codes []apierr.Code) {
		for _, c := range codes {
			set[c] = true
		}
	}
	add(everyRoute)
	if !m.GatewayOwned() {
		// The environment's maintenance switch (gateway/maintenance.go):
		// every route but those the gateway answers itself.
		add(maintenanceRoute)
	}
	p := m.Policy
	if m.Unsigned() && !m.GatewayOwned() {
		add(consentRoute)
		if m.BodyField != "" {
			add(bodyRoute)
		}
		if p.GetAuth() == optionsv1.Auth_AUTH_SESSION {
			// The app's signature is optional, and verified when sent.
			add(signedRoute)
		}
	}
	if p.GetAuth() == optionsv1.Auth_AUTH_HMAC_UNSPECIFIED {
		add(signedRoute)
		if m.BodyField != "" && !m.RawBody {
			add(bodyRoute)
		}
		if len(m.PathFields) > 0 {
			add(pathRoute)
		}
		if m.SellerHeaders() {
			add(sellerRoute)
		}
		if p.GetSandbox() {
			add(sandboxRoute)
		}
		switch p.GetIdempotency() {
		case optionsv1.Idempotency_IDEMPOTENCY_OPTIONAL:
			add(idempotentRoute)
		case optionsv1.Idempotency_IDEMPOTENCY_REQUIRED:
			add(idempotentRoute)
			add(keyRequired)
		}
	}
	add(DeclaredCodes(m))
	out := make([]apierr.Code, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		si, sj := apierr.HTTPStatus(out[i]), apierr.HTTPStatus(out[j])
		if si != sj {
			return si < sj
		}
		return apierr.Name(out[i]) < apierr.Name(out[j])
	})
	return out
}

// DeclaredCodes are the codes a method's own use cases answer, from its
// (mp.errors.v1.errors) option.
func DeclaredCodes(m *policy.Method) []apierr.Code {
	codes, _ := proto.GetExtension(m.Desc.Options(), errorsv1.E_Errors).([]errorsv1.ErrorCode)
	return codes
}

// NotBuilt reports whether the method is declared with its contract but
// answers NOT_IMPLEMENTED until it is built.
func NotBuilt(m *policy.Method) bool {
	for _, c := range DeclaredCodes(m) {
		if c == apierr.NotImplemented {
			return true
		}
	}
	return false
}
