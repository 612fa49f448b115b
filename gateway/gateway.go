package gateway

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/grpc-ecosystem/grpc-gateway/v2/utilities"
	"go.uber.org/zap"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/serviceset"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/sdk"
)

// Gateway is the HTTP handler of the gateway tier.
type Gateway struct {
	cfg       Config
	log       *zap.Logger
	clock     clock.Clock
	window    time.Duration
	table     *policy.Table
	mux       *runtime.ServeMux
	creds     *credentialCache
	ipLimiter *iplimit.Limiter
	// queries holds, per method, what checking its query needs, resolved at
	// start-up rather than on each request.
	queries map[string]queryShape
	// owned answers the routes the gateway serves itself, by method.
	owned map[string]http.HandlerFunc
	// traced is serve inside its span, with tracing on (nil: off).
	traced http.Handler
	// fields are the response fields sent as HTTP (a location, the
	// consent cookie), by response message.
	fields map[protoreflect.FullName]*policy.ResponseFields
	// publicURL is Config.PublicURL parsed (nil: each request's own).
	publicURL *url.URL
	// crossOrigin refuses cross-origin POSTs on the consent flow's routes.
	crossOrigin *http.CrossOriginProtection
	// attempts counts seller sign-in attempts.
	attempts admission.AttemptStore
	// consoleAccounts are console sessions' accounts (console.go).
	consoleAccounts *consoleAccounts
	// maint follows the environment's maintenance switch (maintenance.go).
	maint maintenanceGate
}

// New builds the gateway. It fails when a routed method lacks a policy or a
// registered route has no policy entry: an unguarded route never starts.
func New(cfg Config) (*Gateway, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.setDefaults()
	table, err := policy.Load()
	if err != nil {
		return nil, err
	}
	ipl, err := iplimit.New(cfg.IPLimit)
	if err != nil {
		return nil, err
	}
	g := &Gateway{
		cfg:       cfg,
		log:       cfg.Logger,
		clock:     cfg.Clock,
		window:    cfg.TimestampWindow,
		table:     table,
		creds:     newCredentialCache(credentialsv1.NewCredentialServiceClient(cfg.Core), cfg.CredentialTTL, cfg.CredentialTimeout),
		ipLimiter: ipl,
		queries:   map[string]queryShape{},

		consoleAccounts: newConsoleAccounts(),
	}
	if g.publicURL, err = parsePublicURL(cfg.PublicURL); err != nil {
		return nil, err
	}
	g.crossOrigin = http.NewCrossOriginProtection()
	if g.publicURL != nil {
		if err := g.crossOrigin.AddTrustedOrigin(g.publicURL.String()); err != nil {
			return nil, fmt.Errorf("gateway: public URL: %w", err)
		}
	}
	g.attempts = cfg.Attempts
	if g.attempts == nil {
		if a, ok := cfg.Admission.(admission.AttemptStore); ok {
			g.attempts = a
		} else {
			g.attempts = admission.NewMemoryAttempts()
		}
	}
	if g.fields, err = responseFieldPlans(table.Routes()); err != nil {
		return nil, err
	}
	for _, m := range table.Methods() {
		ex := map[string]bool{}
		for f := range m.PathFields {
			ex[f] = true
		}
		if m.BodyField != "" && m.BodyField != "*" {
			ex[m.BodyField] = true
		}
		mt, err := protoregistry.GlobalTypes.FindMessageByName(m.Desc.Input().FullName())
		if err != nil {
			return nil, fmt.Errorf("gateway: request type of %s: %w", m.FullMethod, err)
		}
		g.queries[m.FullMethod] = queryShape{input: mt, excluded: ex}
	}
	g.mux = runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, envelope{}),
		// grpc-gateway picks the outbound marshaler by Accept; every answer
		// is the platform's JSON whatever the client asks for.
		runtime.WithMarshalerOption("application/json", envelope{}),
		runtime.WithErrorHandler(g.handleCoreError),
		runtime.WithRoutingErrorHandler(g.handleRoutingError),
		// Nothing a client sends becomes gRPC metadata except what the
		// gateway itself verified: a partner must not forge a principal.
		runtime.WithIncomingHeaderMatcher(func(string) (string, bool) { return "", false }),
		// Of core's response metadata only the idempotent replay mark
		// reaches the client (outgoingHeader).
		runtime.WithOutgoingHeaderMatcher(outgoingHeader),
		runtime.WithOutgoingTrailerMatcher(func(string) (string, bool) { return "", false }),
		runtime.WithMetadata(annotate),
		runtime.WithForwardResponseOption(g.afterCore),
		runtime.WithDisableHTTPMethodOverride(),
		runtime.SetQueryParameterParser(queryParser{}),
		runtime.WithForwardResponseOption(g.applyResponseFields),
		runtime.WithForwardResponseOption(rawAnswerHeaders),
		runtime.WithForwardResponseOption(g.afterConsole),
	)
	ctx := context.Background()
	for _, svc := range serviceset.All() {
		if svc.Gateway == nil {
			continue // internal: no routes on the partner port
		}
		if err := svc.Gateway(ctx, g.mux, g.cfg.Core); err != nil {
			return nil, fmt.Errorf("gateway: routes of %s: %w", svc.Name, err)
		}
	}
	if g.owned, err = g.ownedRoutes(); err != nil {
		return nil, err
	}
	if err := checkRoutes(table.Routes(), g.owned, g.fields); err != nil {
		return nil, err
	}
	if cfg.Tracing.Enabled() {
		g.traced = cfg.Tracing.HTTPHandler(http.HandlerFunc(g.serve), "open/v1")
	}
	g.startMaintenance()
	return g, nil
}

// afterCore runs on each success answer of core before it is written: an
// app that rotated its secret through this gateway has its cached
// credentials dropped before it reads the new secret, so its next request
// here verifies with it whatever the cache held; and the answer, which holds
// the secret, is marked for no cache to keep.
func (g *Gateway) afterCore(ctx context.Context, w http.ResponseWriter, m proto.Message) error {
	if _, ok := m.(*authv1.RotatedSecretResponse); !ok {
		return nil
	}
	w.Header().Set("Cache-Control", "no-store")
	if st, ok := ctx.Value(stateKey{}).(*requestState); ok && st.principal != nil {
		g.creds.drop(st.principal.ClientID)
	}
	return nil
}

// queryShape is a method's request type and the fields its query may not set
// (those bound from the path or the body).
type queryShape struct {
	input    protoreflect.MessageType
	excluded map[string]bool
}

// annotate turns the verified request state into gRPC metadata for core.
func annotate(ctx context.Context, _ *http.Request) metadata.MD {
	st, ok := ctx.Value(stateKey{}).(*requestState)
	if !ok {
		return nil
	}
	kv := make([]string, 0, 24)
	kv = append(kv, principal.KeyRequestID, st.requestID)
	if st.principal != nil {
		kv = st.principal.AppendMetadata(kv)
	}
	if st.idempotency != "" {
		kv = append(kv, principal.KeyIdempotency, st.idempotency, principal.KeyFingerprint, st.fingerprint)
	}
	if st.clientIP != "" {
		kv = append(kv, principal.KeyClientIP, st.clientIP)
	}
	if st.consentSession != "" {
		kv = append(kv, principal.KeyConsentSession, st.consentSession)
	}
	kv = st.console.appendMetadata(kv)
	return metadata.Pairs(kv...)
}

func requestIDOf(r *http.Request) string {
	if st, ok := r.Context().Value(stateKey{}).(*requestState); ok {
		return st.requestID
	}
	return r.Header.Get(sdk.HeaderRequestID)
}

// handleCoreError renders an error from core (or from decoding the body on
// the way to core) through the one error writer.
func (g *Gateway) handleCoreError(ctx context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if body, ok := r.Body.(*bodyReader); ok && body.decodeErr != nil {
		writeAPIError(w, requestIDOf(r), body.decodeErr)
		return
	}
	requestID := requestIDOf(r)
	// A replayed error answer is marked like a replayed success, and its
	// body is the first answer's, request id included; X-Request-Id still
	// names this request.
	if md, ok := runtime.ServerMetadataFromContext(ctx); ok && len(md.HeaderMD.Get(principal.KeyReplayed)) > 0 {
		w.Header().Set(HeaderIdempotentReplayed, "true")
		if first := principal.First(md.HeaderMD, principal.KeyReplayOf); first != "" {
			requestID = first
		}
	}
	code, msg, fields := apierr.FromStatusFields(statusOf(err))
	if code == apierr.Internal {
		g.log.Error("core call failed", zap.String("request_id", requestIDOf(r)), zap.Error(err))
	}
	writeErrorFields(w, requestID, code, msg, fields)
}

func (g *Gateway) handleRoutingError(_ context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, r *http.Request, status int) {
	if status == http.StatusMethodNotAllowed {
		writeError(w, requestIDOf(r), apierr.InvalidRequest, r.Method+" is not allowed here")
		return
	}
	writeError(w, requestIDOf(r), apierr.NotFound, "no endpoint at "+r.Method+" "+r.URL.Path)
}

// queryParser lets grpc-gateway fill requests with the same strict parser
// the gateway checked the query with.
type queryParser struct{}

func (queryParser) Parse(msg proto.Message, values url.Values, _ *utilities.DoubleArray) error {
	return wirejson.ParseQuery(msg, values, nil)
}
