package gateway

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// Gateway is the HTTP handler of the gateway tier.
type Gateway struct {
	cfg    Config
	log    *zap.Logger
	clock  clock.Clock
	window time.Duration
	table  *policy.Table
	// calls are the routes served by core, each with its request and
	// answer types (dispatch.go).
	calls     map[*policy.Route]*coreCall
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
	// pageRefusals answer a page route's refused query with its page
	// set's error page rather than the JSON error body, by method.
	pageRefusals map[string]pageRefusal
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
		creds:     newCredentialCache(credentialsv1.NewCredentialServiceClient(cfg.Core), cfg.CredentialTTL, cfg.CredentialTimeout, cfg.Limits),
		ipLimiter: ipl,
		queries:   map[string]queryShape{},

		consoleAccounts: newConsoleAccounts(),
		maint:           maintenanceGate{pages: map[string]maintenancePage{}},
		pageRefusals:    map[string]pageRefusal{},
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
	if g.owned, err = g.ownedRoutes(); err != nil {
		return nil, err
	}
	if err := checkRoutes(table.Routes(), g.owned, g.fields); err != nil {
		return nil, err
	}
	if g.calls, err = coreCalls(table.Routes(), g.owned, cfg.Core); err != nil {
		return nil, err
	}
	for _, c := range g.calls {
		out := c.output.Descriptor()
		c.wire = c.answer == nil && !g.readsAnswer(out) && wirejson.WireRenderable(out)
	}
	if cfg.Tracing.Enabled() {
		g.traced = cfg.Tracing.HTTPHandler(http.HandlerFunc(g.serve), "open/v1")
	}
	g.startMaintenance()
	return g, nil
}

// rotatedSecret is the answer afterCore acts on; httpBody a raw document
// (rawAnswer).
var (
	rotatedSecret = (&authv1.RotatedSecretResponse{}).ProtoReflect().Descriptor().FullName()
	httpBody      = (&httpbody.HttpBody{}).ProtoReflect().Descriptor().FullName()
)

// readsAnswer reports whether writing an answer of type md takes more than
// rendering it: afterCore's answer, one with a location, cookie or entity
// tag field (applyResponseFields), a raw document (rawAnswerHeaders). Every
// other answer is rendered from the wire (writeWireAnswer).
func (g *Gateway) readsAnswer(md protoreflect.MessageDescriptor) bool {
	name := md.FullName()
	return name == rotatedSecret || name == httpBody || g.fields[name] != nil
}

// afterCore runs on each success answer of core before it is written: an
// app that rotated its secret through this gateway has its cached
// credentials dropped before it reads the new secret, so its next request
// here verifies with it whatever the cache held; and the answer, which holds
// the secret, is marked for no cache to keep.
func (g *Gateway) afterCore(st *requestState, w http.ResponseWriter, m proto.Message) error {
	if m.ProtoReflect().Descriptor().FullName() != rotatedSecret {
		return nil
	}
	w.Header().Set("Cache-Control", "no-store")
	if st.principal != nil {
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
