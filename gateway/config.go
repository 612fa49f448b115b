// Package gateway is the HTTP tier: it serves /open/v1 to partners, verifies
// every request (body cap, HMAC v3, replay, credential kind, rate limits,
// route policy) and forwards it to core over gRPC through grpc-gateway, with
// the spec's success envelope and one error writer for every failure.
package gateway

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"time"

	"go.uber.org/zap"
	"gocloud.dev/blob"
	"google.golang.org/grpc"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/telemetry"
)

// Environments a deployment serves.
const (
	EnvSandbox    = "sandbox"
	EnvProduction = "production"
)

// Timestamp window bounds from the spec.
const (
	DefaultTimestampWindow = 90 * time.Second
	MinTimestampWindow     = 30 * time.Second
	MaxTimestampWindow     = 300 * time.Second
)

// Config configures the gateway.
type Config struct {
	// Environment is the kind of credentials this deployment accepts.
	Environment string
	// Core is a connection to the core tier; the gateway adds the internal
	// credential to every call itself.
	Core *grpc.ClientConn
	// GatewayToken is the gateway's credential on core's port (Core
	// carries it on every call; this is checked at start).
	GatewayToken string
	// TimestampWindow is the freshness window (30 s to 300 s; default 90 s).
	TimestampWindow time.Duration
	// Admission claims nonces and charges rate buckets (Redis or memory).
	Admission admission.Store
	// Limits are the per-minute ceilings (defaults from the spec).
	Limits admission.Limits
	// IPLimit configures the pre-authentication limiter per source address.
	IPLimit iplimit.Config
	// ConsolePerMinute is the developer console's rate limit per account
	// (default policy.ConsolePerAccount).
	ConsolePerMinute int
	// TrustedProxies are the load balancers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// PublicURL is the platform's public address as partners and sellers'
	// browsers reach it, an origin such as https://api.mall.example
	// (MP_PUBLIC_URL): redirects to the consent page are made absolute on
	// it, the consent cookie is Secure when it is https, and it is a
	// trusted origin of the consent pages' POSTs. Empty: each request's
	// own scheme and Host.
	PublicURL string
	// Attempts counts the seller sign-in attempts (rolling windows per
	// address and per username). Nil: Admission when it is one (Redis, so
	// every replica shares the count), memory otherwise.
	Attempts admission.AttemptStore
	// CredentialTTL is how long app credentials fetched from core are cached
	// (default 30 s); a deactivation, or the end of a secret, takes effect
	// within it. A new secret verifies at once: a signature the cached
	// secrets do not verify has the app fetched again (at most once a
	// second per app).
	CredentialTTL time.Duration
	// RequestTimeout bounds each call to core (default 10 s).
	RequestTimeout time.Duration
	// CredentialTimeout bounds a credential lookup in core (default 2 s).
	// The lookup is shared by every request of the app waiting for it, so
	// it runs under this deadline alone, not under any one request's.
	CredentialTimeout time.Duration
	// AdmissionTimeout bounds the admission store's call (default 300 ms):
	// when Redis does not answer within it the request gets 503
	// SERVICE_UNAVAILABLE instead of waiting for a dead connection to be
	// noticed.
	AdmissionTimeout time.Duration
	// ReadyTimeout bounds each dependency check of Ready (default 1 s).
	ReadyTimeout time.Duration
	// Maintenance tunes how the gateway follows its environment's
	// maintenance switch (gateway/maintenance.go).
	Maintenance MaintenanceConfig
	// Clock is security time (the signature window, rate windows, caches):
	// the wall clock in every deployment, sandbox included; tests move it.
	// The gateway has no business time: that is core's, per request.
	Clock   clock.Clock
	Logger  *zap.Logger
	Metrics *Metrics
	// Tracing puts every request in a server span whose context reaches
	// core (nil: off). The connection to core carries the client half
	// (telemetry.Tracing.DialOptions).
	Tracing *telemetry.Tracing
	// Uploads is the upload bucket the gateway serves files from
	// (GET /uploads/{name}): the dev role's directory. Nil: the route
	// answers 404, the files being served from the bucket's own address.
	Uploads *blob.Bucket
}

// Validate reports configuration mistakes.
func (c *Config) Validate() error {
	var errs []error
	if c.Environment != EnvSandbox && c.Environment != EnvProduction {
		errs = append(errs, fmt.Errorf("gateway: environment must be %q or %q", EnvSandbox, EnvProduction))
	}
	if c.Core == nil {
		errs = append(errs, errors.New("gateway: a core connection is required"))
	}
	if len(c.GatewayToken) < 16 {
		errs = append(errs, errors.New("gateway: the gateway token must be at least 16 characters"))
	}
	if c.TimestampWindow != 0 && (c.TimestampWindow < MinTimestampWindow || c.TimestampWindow > MaxTimestampWindow) {
		errs = append(errs, fmt.Errorf("gateway: the timestamp window must be between %s and %s", MinTimestampWindow, MaxTimestampWindow))
	}
	if c.Admission == nil {
		errs = append(errs, errors.New("gateway: an admission store (Redis or memory) is required"))
	}
	if err := c.Limits.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := c.IPLimit.Validate(); err != nil {
		errs = append(errs, err)
	}
	if _, err := parsePublicURL(c.PublicURL); err != nil {
		errs = append(errs, err)
	}
	if err := c.Maintenance.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.RequestTimeout < 0 || c.CredentialTimeout < 0 || c.AdmissionTimeout < 0 || c.ReadyTimeout < 0 {
		errs = append(errs, errors.New("gateway: timeouts must not be negative"))
	}
	return errors.Join(errs...)
}

func (c *Config) setDefaults() {
	if c.TimestampWindow == 0 {
		c.TimestampWindow = DefaultTimestampWindow
	}
	if c.CredentialTTL == 0 {
		c.CredentialTTL = 30 * time.Second
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 10 * time.Second
	}
	if c.CredentialTimeout == 0 {
		c.CredentialTimeout = 2 * time.Second
	}
	if c.AdmissionTimeout == 0 {
		c.AdmissionTimeout = 300 * time.Millisecond
	}
	if c.ReadyTimeout == 0 {
		c.ReadyTimeout = time.Second
	}
	if c.Clock == nil {
		c.Clock = clock.System{}
	}
	if c.ConsolePerMinute <= 0 {
		c.ConsolePerMinute = policy.ConsolePerAccount
	}
	c.Maintenance.setDefaults()
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
}

// parsePublicURL reads Config.PublicURL: empty, or an http or https origin
// (no path beyond "/", no query, fragment or user).
func parsePublicURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return nil, fmt.Errorf("gateway: the public URL %q must be an origin such as https://api.example.com (no path, query or user)", s)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, nil
}
