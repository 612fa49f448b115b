// Package consent serves the seller's side of the authorization flow: the
// consent page the authorize route redirects the seller's browser to, and
// its stylesheet and script. The page is rendered on the server
// (html/template) from what core says about the session; the script, served
// from this package's embedded files, drives the flow's JSON routes
// (seller-verify, seller-verify-otp, seller-consent, deny) on the same
// origin. No inline script or style and no third-party resource: the page's
// Content-Security-Policy allows only this origin's files.
package consent

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/gateway/pagekit"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// ContentSecurityPolicy is the policy of every page this package answers
// (the gateway's pages share it).
const ContentSecurityPolicy = pagekit.ContentSecurityPolicy

// maxSessionLen is the longest session token core accepts
// (DescribeSessionRequest.session); a longer one is not a session.
const maxSessionLen = 128

// Describer is core's view of a session (AuthorizationServiceClient).
type Describer interface {
	DescribeSession(ctx context.Context, in *authv1.DescribeSessionRequest, opts ...grpc.CallOption) (*authv1.DescribeSessionResponse, error)
}

// Config configures the pages.
type Config struct {
	// Sessions describes a session (core's AuthorizationService).
	Sessions Describer
	// Timeout bounds the call to core (default 5 s).
	Timeout time.Duration
	// ClientIP is the address the request is attributed to (sent to core
	// for its audit trail); nil sends none.
	ClientIP func(*http.Request) string
	// WriteError answers a failure of an asset request with the platform's
	// JSON error body (the gateway's one error writer). Pages answer HTML.
	WriteError func(w http.ResponseWriter, r *http.Request, code apierr.Code, message string)
	// CSRFToken, when set, gives the anti-forgery token the page carries for
	// a session; the page's script sends it in an X-CSRF-Token header on
	// every call of the flow.
	CSRFToken func(session string) string
	Logger    *zap.Logger
}

// Pages answers the consent page and its assets.
type Pages struct {
	cfg    Config
	tmpl   *template.Template
	assets *pagekit.Assets
	css    string
	js     string
}

//go:embed web/page.html web/consent.css web/consent.js
var webFiles embed.FS

// New builds the pages.
func New(cfg Config) (*Pages, error) {
	if cfg.Sessions == nil || cfg.WriteError == nil {
		return nil, errors.New("consent: a session describer and an error writer are required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	tmpl, err := template.ParseFS(webFiles, "web/page.html")
	if err != nil {
		return nil, fmt.Errorf("consent: %w", err)
	}
	assets, err := pagekit.LoadAssets(webFiles, "web/consent.css", "web/consent.js")
	if err != nil {
		return nil, err
	}
	return &Pages{cfg: cfg, tmpl: tmpl, assets: assets, css: assets.Name("consent.css"), js: assets.Name("consent.js")}, nil
}

// view is what the template renders.
type view struct {
	// Kind is "consent", or the page shown instead: "expired", "invalid",
	// "unavailable", "failed".
	Kind    string
	CSS, JS string
	App     string
	Scopes  []scopeItem
	Session string
	CSRF    string
	Minutes int64
	// Message and Until (shown, and in RFC 3339) on the maintenance page.
	Message, Until, UntilISO string
}

// Page answers GET …/consent?session=…: the consent page of a live session,
// or a page that says the link cannot be used.
func (p *Pages) Page(w http.ResponseWriter, r *http.Request) {
	session := r.URL.Query().Get("session")
	switch {
	case session == "":
		p.render(w, http.StatusBadRequest, view{Kind: "invalid"})
		return
	case len(session) > maxSessionLen:
		p.render(w, http.StatusGone, view{Kind: "expired"})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), p.cfg.Timeout)
	defer cancel()
	kv := []string{principal.KeyRequestID, w.Header().Get("X-Request-Id")}
	if p.cfg.ClientIP != nil {
		kv = append(kv, principal.KeyClientIP, p.cfg.ClientIP(r))
	}
	ctx = metadata.NewOutgoingContext(ctx, metadata.Pairs(kv...))
	resp, err := p.cfg.Sessions.DescribeSession(ctx, &authv1.DescribeSessionRequest{Session: session})
	if err != nil {
		p.failed(w, r, err)
		return
	}
	d := resp.GetData()
	if d.GetExpiresIn() <= 0 {
		p.render(w, http.StatusGone, view{Kind: "expired"})
		return
	}
	v := view{
		Kind:    "consent",
		App:     d.GetApp().GetName(),
		Scopes:  describeScopes(d.GetScopes()),
		Session: session,
		// Whole minutes left, rounded down: the page never promises more.
		Minutes: d.GetExpiresIn() / 60,
	}
	if p.cfg.CSRFToken != nil {
		v.CSRF = p.cfg.CSRFToken(session)
	}
	p.render(w, http.StatusOK, v)
}

// Maintenance answers the consent page while the environment is in
// maintenance: 503 with the operator's message and, when announced, the
// expected end (the caller sets Retry-After). Nothing is asked of core.
func (p *Pages) Maintenance(w http.ResponseWriter, message string, until time.Time) {
	v := view{Kind: "maintenance", Message: message}
	v.Until, v.UntilISO = pagekit.MaintenanceEnd(until)
	p.render(w, http.StatusServiceUnavailable, v)
}

// Refused answers the page when the gateway refused it before it was asked
// for (a query parameter the page does not take): the page for a link that
// is not complete, at the refusal's status. Nothing is asked of core; the
// refusal's message is in the access log, not on a page a buyer reads.
func (p *Pages) Refused(w http.ResponseWriter, status int, _ string) {
	p.render(w, status, view{Kind: "invalid"})
}

// failed renders the page for core's refusal: an unknown, used or expired
// session is the expired page; a core that is down or slow asks to reload.
func (p *Pages) failed(w http.ResponseWriter, r *http.Request, err error) {
	code, _ := apierr.FromStatus(status.Convert(err))
	switch code {
	case errorsv1.ErrorCode_ERROR_CODE_SESSION_EXPIRED, apierr.NotFound, apierr.Unauthorized,
		apierr.ValidationError, apierr.InvalidRequest, apierr.BadRequest:
		p.render(w, http.StatusGone, view{Kind: "expired"})
	case apierr.ServiceUnavailable, apierr.UpstreamTimeout:
		w.Header().Set("Retry-After", "5")
		p.render(w, http.StatusServiceUnavailable, view{Kind: "unavailable"})
	default:
		p.cfg.Logger.Error("consent page: describing the session failed",
			zap.String("request_id", w.Header().Get("X-Request-Id")), zap.String("path", r.URL.Path), zap.Error(err))
		p.render(w, http.StatusInternalServerError, view{Kind: "failed"})
	}
}

func (p *Pages) render(w http.ResponseWriter, status int, v view) {
	v.CSS, v.JS = p.css, p.js
	// The session token is in the page's URL: no Referer may carry it
	// elsewhere, and no cache may keep the page (pagekit's headers).
	pagekit.Render(w, p.cfg.Logger, "consent page", p.tmpl, status, v, view{Kind: "failed", CSS: p.css, JS: p.js})
}

// Asset answers GET …/assets/{name}: an embedded stylesheet or script under
// its digest name, cacheable for a year.
func (p *Pages) Asset(w http.ResponseWriter, r *http.Request) {
	p.assets.Serve(w, r, func(w http.ResponseWriter, r *http.Request) {
		p.cfg.WriteError(w, r, apierr.NotFound, "no such asset")
	})
}
