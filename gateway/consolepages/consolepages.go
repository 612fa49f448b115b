// Package consolepages serves the developer console's pages under
// /console/: sign-up, the email's verification, sign-in, apps, test shops,
// members, an invitation and the profile, with their one stylesheet and one
// script. A page is rendered on the server (html/template) from core's
// DeveloperService answers for the request's console session; every change
// goes through the console's JSON API (/console/v1) from the script, which
// sends the session's CSRF token the page carries in its csrf-token meta
// tag. The pages share the consent page's policy and headers (pagekit): no
// inline script or style, no third-party resource.
package consolepages

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mallplatform/partnerapi/gateway/pagekit"
	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Prefix starts every page's path.
const Prefix = "/console/"

// Developer is what the pages ask of core's DeveloperService.
type Developer interface {
	GetSession(ctx context.Context, in *developerv1.GetSessionRequest, opts ...grpc.CallOption) (*developerv1.SessionResponse, error)
	GetAccount(ctx context.Context, in *developerv1.GetAccountRequest, opts ...grpc.CallOption) (*developerv1.AccountResponse, error)
	ListApps(ctx context.Context, in *developerv1.ListAppsRequest, opts ...grpc.CallOption) (*developerv1.ListAppsResponse, error)
	GetApp(ctx context.Context, in *developerv1.GetAppRequest, opts ...grpc.CallOption) (*developerv1.AppResponse, error)
	ListTestShops(ctx context.Context, in *developerv1.ListTestShopsRequest, opts ...grpc.CallOption) (*developerv1.ListTestShopsResponse, error)
	ListMembers(ctx context.Context, in *developerv1.ListMembersRequest, opts ...grpc.CallOption) (*developerv1.ListMembersResponse, error)
	ListInvitations(ctx context.Context, in *developerv1.ListInvitationsRequest, opts ...grpc.CallOption) (*developerv1.ListInvitationsResponse, error)
}

// Config configures the pages.
type Config struct {
	// Developer answers for the session (core's DeveloperService).
	Developer Developer
	// Timeout bounds a page's calls to core (default 5 s).
	Timeout time.Duration
	// Metadata is the outgoing metadata of a page's calls to core: the
	// request id, the client's address and the console cookie's session,
	// as the console's JSON routes send them.
	Metadata func(w http.ResponseWriter, r *http.Request) []string
	// Renew, when set, renews the console cookie on a page answered to a
	// live session, as every JSON answer to one does: a person who only
	// reads pages keeps the session as long as core does.
	Renew func(w http.ResponseWriter, r *http.Request)
	// Scopes are the scopes an app may ask for, one checkbox each.
	Scopes []string
	// WriteError answers a failure of an asset request with the platform's
	// JSON error body (the gateway's one error writer). Pages answer HTML.
	WriteError func(w http.ResponseWriter, r *http.Request, code apierr.Code, message string)
	Logger     *zap.Logger
}

// Pages answers the console's pages and their assets.
type Pages struct {
	cfg     Config
	tmpl    *template.Template
	assets  *pagekit.Assets
	css, js string
}

//go:embed web/page.html web/console.css web/console.js
var webFiles embed.FS

// New builds the pages.
func New(cfg Config) (*Pages, error) {
	if cfg.Developer == nil || cfg.WriteError == nil || cfg.Metadata == nil {
		return nil, errors.New("consolepages: core's developer service, the call metadata and an error writer are required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	tmpl, err := template.New("").Funcs(template.FuncMap{"has": slices.Contains[[]string], "shownTime": shownTime, "isoTime": isoTime}).
		ParseFS(webFiles, "web/page.html")
	if err != nil {
		return nil, fmt.Errorf("consolepages: %w", err)
	}
	assets, err := pagekit.LoadAssets(webFiles, "web/console.css", "web/console.js")
	if err != nil {
		return nil, err
	}
	return &Pages{cfg: cfg, tmpl: tmpl, assets: assets, css: assets.Name("console.css"), js: assets.Name("console.js")}, nil
}

// Roles are the members' roles, most powerful first.
var Roles = []string{"OWNER", "ADMIN", "DEVELOPER", "VIEWER"}

// view is what the template renders.
type view struct {
	// Kind names the page ("apps", "signin", …) or the page shown instead:
	// "noapp", "unavailable", "failed", "maintenance", "refused".
	Kind    string
	CSS, JS string
	// CSRF is the session's token, for the script's calls.
	CSRF    string
	Session *developerv1.Session
	Account *developerv1.Account
	Apps    []*developerv1.App
	App     *developerv1.App
	Shops   []*developerv1.TestShop
	Members []*developerv1.Member
	// Invitations are the account's pending invitations.
	Invitations []*developerv1.Invitation
	Scopes      []string
	Roles       []string
	Token       string
	Next        string
	Self        string
	Message     string
	Until       string
	UntilISO    string
}

// SignedIn reports whether the page shows the console's navigation.
func (v *view) SignedIn() bool { return v.Session != nil }

// SandboxApps are the active sandbox apps a test shop can be authorised
// for.
func (v *view) SandboxApps() []*developerv1.App {
	var out []*developerv1.App
	for _, a := range v.Apps {
		if a.GetEnvironment() == "sandbox" && a.GetActive() {
			out = append(out, a)
		}
	}
	return out
}

// ManagesMembers reports whether the session's role invites and removes
// members; ChangesRoles, whether it changes roles (docs/decisions.md,
// "Developer console: test shops, members and roles").
func (v *view) ManagesMembers() bool {
	r := v.Session.GetRole()
	return r == "OWNER" || r == "ADMIN"
}

// ChangesRoles reports whether the session's role changes roles.
func (v *view) ChangesRoles() bool { return v.Session.GetRole() == "OWNER" }

// ProfileOpen reports whether the account may submit its profile: none
// pending or approved.
func (v *view) ProfileOpen() bool {
	s := v.Account.GetProfileStatus()
	return s != "pending" && s != "approved"
}

// Index answers GET /console/: to the apps with a live session, else to
// the sign-in.
func (p *Pages) Index(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := p.callContext(w, r)
	defer cancel()
	_, err := p.cfg.Developer.GetSession(ctx, &developerv1.GetSessionRequest{})
	switch {
	case err == nil:
		redirect(w, Prefix+"apps")
	case signedOut(err):
		redirect(w, Prefix+"signin")
	default:
		p.failed(w, r, err)
	}
}

// SignUp answers the sign-up page.
func (p *Pages) SignUp(w http.ResponseWriter, _ *http.Request) {
	p.render(w, http.StatusOK, view{Kind: "signup"})
}

// SignIn answers the sign-in page; its script goes to next after signing
// in when next is a console page.
func (p *Pages) SignIn(w http.ResponseWriter, r *http.Request) {
	p.render(w, http.StatusOK, view{Kind: "signin", Next: consoleNext(r.URL.Query().Get("next"))})
}

// Verify answers the verification link's page. The GET leaves the token
// unused (a mail scanner's fetch must not spend it): the page's button
// verifies.
func (p *Pages) Verify(w http.ResponseWriter, r *http.Request) {
	p.render(w, http.StatusOK, view{Kind: "verify", Token: r.URL.Query().Get("token")})
}

// Invitation answers an invitation link's page. The link comes from mail,
// a cross-site navigation that carries no SameSite=Strict cookie, so the
// page asks core nothing: its script reads the session with a same-origin
// fetch, which sends the cookie.
func (p *Pages) Invitation(w http.ResponseWriter, r *http.Request) {
	p.render(w, http.StatusOK, view{Kind: "invitation", Token: r.URL.Query().Get("token"), Self: r.URL.RequestURI()})
}

// Apps answers the account's apps.
func (p *Pages) Apps(w http.ResponseWriter, r *http.Request) {
	p.signedIn(w, r, "apps", func(ctx context.Context, v *view) error {
		resp, err := p.cfg.Developer.ListApps(ctx, &developerv1.ListAppsRequest{})
		v.Apps, v.Scopes = resp.GetData(), p.cfg.Scopes
		return err
	})
}

// App answers one app of the account; another account's or an unknown one
// is the "no such app" page, 404.
func (p *Pages) App(w http.ResponseWriter, r *http.Request) {
	p.signedIn(w, r, "app", func(ctx context.Context, v *view) error {
		resp, err := p.cfg.Developer.GetApp(ctx, &developerv1.GetAppRequest{Id: path.Base(r.URL.Path)})
		v.App, v.Scopes = resp.GetData(), p.cfg.Scopes
		return err
	})
}

// TestShops answers the account's test shops.
func (p *Pages) TestShops(w http.ResponseWriter, r *http.Request) {
	p.signedIn(w, r, "test-shops", func(ctx context.Context, v *view) error {
		var shops *developerv1.ListTestShopsResponse
		var apps *developerv1.ListAppsResponse
		err := both(ctx, func(ctx context.Context) (err error) {
			shops, err = p.cfg.Developer.ListTestShops(ctx, &developerv1.ListTestShopsRequest{})
			return err
		}, func(ctx context.Context) (err error) {
			apps, err = p.cfg.Developer.ListApps(ctx, &developerv1.ListAppsRequest{})
			return err
		})
		v.Shops, v.Apps = shops.GetData(), apps.GetData()
		return err
	})
}

// Members answers the account's members and pending invitations.
func (p *Pages) Members(w http.ResponseWriter, r *http.Request) {
	p.signedIn(w, r, "members", func(ctx context.Context, v *view) error {
		var members *developerv1.ListMembersResponse
		var invitations *developerv1.ListInvitationsResponse
		err := both(ctx, func(ctx context.Context) (err error) {
			members, err = p.cfg.Developer.ListMembers(ctx, &developerv1.ListMembersRequest{})
			return err
		}, func(ctx context.Context) (err error) {
			invitations, err = p.cfg.Developer.ListInvitations(ctx, &developerv1.ListInvitationsRequest{})
			return err
		})
		v.Members, v.Invitations, v.Roles = members.GetData(), invitations.GetData(), Roles
		return err
	})
}

// both runs a page's two independent reads of core at once, so that the
// page waits for one round trip rather than two; the first error is the
// page's, and it cancels the other read.
func both(ctx context.Context, a, b func(context.Context) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a(ctx) })
	g.Go(func() error { return b(ctx) })
	return g.Wait()
}

// shownTime and isoTime are a time of core's answer as a page shows it and
// as its <time> element's datetime (pagekit.PhilippineTime).
func shownTime(ts *timestamppb.Timestamp) string {
	shown, _ := pagekit.PhilippineTime(ts.AsTime())
	return shown
}

func isoTime(ts *timestamppb.Timestamp) string {
	_, iso := pagekit.PhilippineTime(ts.AsTime())
	return iso
}

// Profile answers the account and its profile.
func (p *Pages) Profile(w http.ResponseWriter, r *http.Request) {
	p.signedIn(w, r, "profile", func(ctx context.Context, v *view) error {
		resp, err := p.cfg.Developer.GetAccount(ctx, &developerv1.GetAccountRequest{})
		v.Account = resp.GetData()
		return err
	})
}

// Asset answers GET /console/assets/{name}.
func (p *Pages) Asset(w http.ResponseWriter, r *http.Request) {
	p.assets.Serve(w, r, func(w http.ResponseWriter, r *http.Request) {
		p.cfg.WriteError(w, r, apierr.NotFound, "no such asset")
	})
}

// Maintenance answers a page while the environment is in maintenance: 503
// with the operator's message and, when announced, the expected end (the
// caller sets Retry-After). Nothing is asked of core.
func (p *Pages) Maintenance(w http.ResponseWriter, message string, until time.Time) {
	v := view{Kind: "maintenance", Message: message}
	v.Until, v.UntilISO = pagekit.MaintenanceEnd(until)
	p.render(w, http.StatusServiceUnavailable, v)
}

// Refused answers a page the gateway refused before it was asked for (a
// query parameter the page does not take): the console's error page with
// the refusal's status and message. Nothing is asked of core.
func (p *Pages) Refused(w http.ResponseWriter, status int, message string) {
	p.render(w, status, view{Kind: "refused", Message: message})
}

// signedIn renders a page that needs a live session: the session (its
// CSRF token for the script), then what load reads. Without a live
// session the answer is 303 to the sign-in, which comes back here.
func (p *Pages) signedIn(w http.ResponseWriter, r *http.Request, kind string, load func(context.Context, *view) error) {
	ctx, cancel := p.callContext(w, r)
	defer cancel()
	sess, err := p.cfg.Developer.GetSession(ctx, &developerv1.GetSessionRequest{})
	if err == nil {
		v := view{Kind: kind, Session: sess.GetData(), CSRF: sess.GetData().GetCsrfToken()}
		if err = load(ctx, &v); err == nil {
			if p.cfg.Renew != nil {
				p.cfg.Renew(w, r)
			}
			p.render(w, http.StatusOK, v)
			return
		}
	}
	switch {
	case signedOut(err):
		redirect(w, Prefix+"signin?next="+nextParam(r.URL.RequestURI()))
	case kind == "app" && noSuchApp(err):
		p.render(w, http.StatusNotFound, view{Kind: "noapp", Session: sess.GetData()})
	default:
		p.failed(w, r, err)
	}
}

// callContext is a page's context for core: the gateway's request timeout
// and the console call's metadata.
func (p *Pages) callContext(w http.ResponseWriter, r *http.Request) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(r.Context(), p.cfg.Timeout)
	return metadata.NewOutgoingContext(ctx, metadata.Pairs(p.cfg.Metadata(w, r)...)), cancel
}

// signedOut reports whether core refused the call for want of a live
// session.
func signedOut(err error) bool {
	code, _ := apierr.FromStatus(status.Convert(err))
	return code == apierr.Unauthorized
}

// noSuchApp reports whether core says the app is not the account's (or
// its id is not one).
func noSuchApp(err error) bool {
	code, _ := apierr.FromStatus(status.Convert(err))
	return code == errorsv1.ErrorCode_ERROR_CODE_APP_NOT_FOUND || code == apierr.NotFound || code == apierr.ValidationError
}

// consoleNext is next when it is a console page of this origin, else "".
func consoleNext(next string) string {
	if !strings.HasPrefix(next, Prefix) || strings.ContainsAny(next, "\\\r\n\t") || strings.Contains(next, "//") {
		return ""
	}
	return next
}

// nextParam is a page's path and query as the sign-in's next parameter:
// query-escaped, its slashes kept (a query may hold them), so the common
// case reads /console/signin?next=/console/apps.
func nextParam(page string) string {
	return strings.ReplaceAll(url.QueryEscape(page), "%2F", "/")
}

// redirect answers 303 to a console page.
func redirect(w http.ResponseWriter, location string) {
	h := w.Header()
	h.Set("Location", location)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusSeeOther)
}

// failed renders the page for a failure of core: briefly unavailable asks
// to reload; anything else is logged and says something went wrong, never
// what.
func (p *Pages) failed(w http.ResponseWriter, r *http.Request, err error) {
	code, _ := apierr.FromStatus(status.Convert(err))
	switch code {
	case apierr.ServiceUnavailable, apierr.UpstreamTimeout:
		w.Header().Set("Retry-After", "5")
		p.render(w, http.StatusServiceUnavailable, view{Kind: "unavailable"})
	default:
		p.cfg.Logger.Error("console page: a call to core failed",
			zap.String("request_id", w.Header().Get("X-Request-Id")), zap.String("path", r.URL.Path), zap.Error(err))
		p.render(w, http.StatusInternalServerError, view{Kind: "failed"})
	}
}

func (p *Pages) render(w http.ResponseWriter, status int, v view) {
	v.CSS, v.JS = p.css, p.js
	pagekit.Render(w, p.cfg.Logger, "console page", p.tmpl, status, &v, &view{Kind: "failed", CSS: p.css, JS: p.js},
		zap.String("page", v.Kind))
}
