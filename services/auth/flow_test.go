package auth_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/auth"
)

const (
	redirectURI = "https://partner.example/callback"
	password    = "correct horse battery"
	fixedCode   = "246810"
)

// grantEvents records what the flow asked to record.
type grantEvents struct {
	mu   sync.Mutex
	seen []string
}

func (g *grantEvents) Granted(_ context.Context, gr *auth.Grant, app *auth.App, _ time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seen = append(g.seen, "granted:"+gr.ID+":"+app.ID)
	return nil
}

func (g *grantEvents) Revoked(_ context.Context, gr *auth.Grant, app *auth.App, _ time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seen = append(g.seen, "revoked:"+gr.ID+":"+app.ID)
	return nil
}

func (g *grantEvents) list() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string{}, g.seen...)
}

// sentCodes is an OTPSender that keeps the codes it sent.
type sentCodes struct {
	mu    sync.Mutex
	codes map[string]string
}

func (s *sentCodes) SendOTP(_ context.Context, destination, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[destination] = code
	return nil
}

type flowEnv struct {
	d      *db.DB
	clk    *clock.Manual
	svc    *auth.Service
	flow   *auth.Flow
	events *grantEvents
	sent   *sentCodes
	// app and other are sandbox apps of one account; seller is a test shop
	// with a fixed code, live a production app.
	app, other, live *auth.CreatedApp
	seller           *auth.Seller
	username         string
}

func newFlowEnv(t *testing.T, d *db.DB) *flowEnv {
	t.Helper()
	ctx := context.Background()
	e := &flowEnv{d: d, clk: clock.NewManual(time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)), events: &grantEvents{},
		sent: &sentCodes{codes: map[string]string{}}, username: "maria@santos.example"}
	sealer, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	// The sign-in steps are the point here, not the hash's cost: the logins
	// are written at the test cost (TestSellerLoginPasswordCost holds the
	// production one).
	if e.svc, err = auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, Clock: e.clk,
		PasswordCost: auth.TestPasswordCost}); err != nil {
		t.Fatal(err)
	}
	if e.flow, err = auth.NewFlow(auth.FlowConfig{Store: auth.NewFlowEntStore(d.Ent), Sealer: sealer,
		Events: e.events, Sender: e.sent, Tokens: e.svc, Clock: e.clk}); err != nil {
		t.Fatal(err)
	}
	acct, err := e.svc.CreateAccount(ctx, auth.NewAccount{Name: "Partner", Email: "dev@partner.example"})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(name, env string) *auth.CreatedApp {
		a, err := e.svc.CreateApp(ctx, auth.NewApp{AccountID: acct.ID, Name: name, Environment: env,
			Scopes: []string{"catalog:read", "orders:read", "orders:write"}, RedirectURIs: []string{redirectURI}})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	e.app, e.other, e.live = mk("Shelf Sync", auth.EnvSandbox), mk("Other", auth.EnvSandbox), mk("Live", auth.EnvProduction)
	if e.seller, err = e.svc.CreateTestShop(ctx, "Maria Santos", "Santos Home"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.CreateSellerLogin(ctx, auth.NewSellerLogin{SellerID: e.seller.ID, Username: "Maria@Santos.example",
		Password: password, Destination: "+639171234567", FixedOTP: fixedCode}, true); err != nil {
		t.Fatal(err)
	}
	return e
}

func signedBy(a *auth.CreatedApp) context.Context {
	return principal.NewContext(context.Background(), &principal.Principal{AppID: a.App.ID, ClientID: a.App.ClientID,
		Environment: a.App.Environment, Scopes: a.App.Scopes})
}

func withCookie(cookie string) context.Context {
	return metadata.NewIncomingContext(context.Background(), metadata.Pairs(principal.KeyConsentSession, cookie))
}

func wantCode(t *testing.T, err error, want apierr.Code) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok || e.Code != want {
		t.Fatalf("got %v, want %s", err, apierr.Name(want))
	}
}

// start authorizes and returns the session token of the consent link.
func (e *flowEnv) start(t *testing.T, app *auth.CreatedApp, p auth.AuthorizeParams) string {
	t.Helper()
	p.ClientID = app.App.ClientID
	if p.RedirectURI == "" {
		p.RedirectURI = redirectURI
	}
	st, err := e.flow.Authorize(signedBy(app), p)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(st.Location)
	if err != nil || u.Path != auth.ConsentPath {
		t.Fatalf("location %q", st.Location)
	}
	return u.Query().Get("session")
}

// signIn runs sign-in and the code, returning the cookie.
func (e *flowEnv) signIn(t *testing.T, session string) string {
	t.Helper()
	in, err := e.flow.VerifySeller(context.Background(), session, e.username, password)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.flow.VerifySellerOtp(withCookie(in.Cookie), fixedCode); err != nil {
		t.Fatal(err)
	}
	return in.Cookie
}

// consent runs the whole flow to a code.
func (e *flowEnv) consent(t *testing.T, app *auth.CreatedApp, p auth.AuthorizeParams, scopes []string) (code, state string) {
	t.Helper()
	cookie := e.signIn(t, e.start(t, app, p))
	to, err := e.flow.Consent(withCookie(cookie), scopes)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(to)
	if err != nil || !strings.HasPrefix(to, redirectURI+"?") {
		t.Fatalf("redirect %q", to)
	}
	return u.Query().Get("code"), u.Query().Get("state")
}

func TestAuthorizeChecksTheAppAndItsRedirectURI(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		_, err := e.flow.Authorize(signedBy(e.app), auth.AuthorizeParams{ClientID: e.other.App.ClientID, RedirectURI: redirectURI})
		wantCode(t, err, apierr.ValidationError)
		_, err = e.flow.Authorize(signedBy(e.app), auth.AuthorizeParams{ClientID: e.app.App.ClientID, RedirectURI: redirectURI + "/"})
		wantCode(t, err, apierr.RedirectURLMismatch)
		_, err = e.flow.Authorize(signedBy(e.app), auth.AuthorizeParams{ClientID: e.app.App.ClientID, RedirectURI: redirectURI,
			CodeChallenge: strings.Repeat("a", 43)})
		wantCode(t, err, apierr.ValidationError)
		session := e.start(t, e.app, auth.AuthorizeParams{State: "xyz"})
		v, err := e.flow.DescribeSession(context.Background(), session)
		if err != nil || v.AppName != "Shelf Sync" || len(v.Scopes) != 3 || v.ExpiresIn != auth.SessionTTL {
			t.Fatalf("describe: %+v %v", v, err)
		}
	})
}

func TestSignInAnswersAlikeAndChecksTheSessionFirst(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		session := e.start(t, e.app, auth.AuthorizeParams{})
		_, wrong := e.flow.VerifySeller(context.Background(), session, e.username, "wrong password")
		_, unknown := e.flow.VerifySeller(context.Background(), session, "nobody@example.ph", password)
		wantCode(t, wrong, apierr.Unauthorized)
		wantCode(t, unknown, apierr.Unauthorized)
		if wrong.Error() != unknown.Error() {
			t.Fatalf("a wrong password (%v) and an unknown user (%v) are told apart", wrong, unknown)
		}
		// A test shop signs in to sandbox apps only.
		liveSession := e.start(t, e.live, auth.AuthorizeParams{})
		_, err := e.flow.VerifySeller(context.Background(), liveSession, e.username, password)
		wantCode(t, err, apierr.Unauthorized)
		// An unknown or expired session is refused before the credentials.
		_, err = e.flow.VerifySeller(context.Background(), "no-such-session", "nobody", "x")
		wantCode(t, err, apierr.SessionExpired)
		e.clk.Advance(auth.SessionTTL)
		_, err = e.flow.VerifySeller(context.Background(), session, e.username, password)
		wantCode(t, err, apierr.SessionExpired)
	})
}

func TestOneTimeCodes(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		ctx := context.Background()
		// A shop without a fixed code gets a random one through the sender.
		shop, err := e.svc.CreateTestShop(ctx, "Jose Reyes", "Reyes Gadgets")
		if err != nil {
			t.Fatal(err)
		}
		if err := e.svc.CreateSellerLogin(ctx, auth.NewSellerLogin{SellerID: shop.ID, Username: "jose", Password: password,
			Destination: "jose@reyes.example"}, true); err != nil {
			t.Fatal(err)
		}
		in, err := e.flow.VerifySeller(ctx, e.start(t, e.app, auth.AuthorizeParams{}), "JOSE", password)
		if err != nil {
			t.Fatal(err)
		}
		if in.MaskedDestination != "j***@reyes.example" || in.OTPExpiresIn != auth.OTPTTL {
			t.Fatalf("signed in: %+v", in)
		}
		code := e.sent.codes["jose@reyes.example"]
		if len(code) != 6 {
			t.Fatalf("sent %q", code)
		}
		if _, err := e.flow.VerifySellerOtp(withCookie(in.Cookie), code); err != nil {
			t.Fatal(err)
		}

		// Five wrong codes lock the seller out, the right one included.
		in, err = e.flow.VerifySeller(ctx, e.start(t, e.app, auth.AuthorizeParams{}), e.username, password)
		if err != nil {
			t.Fatal(err)
		}
		if in.MaskedDestination != "+63 9** *** 4567" {
			t.Fatalf("masked %q", in.MaskedDestination)
		}
		for i := 1; i < auth.OTPAttempts; i++ {
			_, err := e.flow.VerifySellerOtp(withCookie(in.Cookie), "000000")
			wantCode(t, err, apierr.Unauthorized)
		}
		_, err = e.flow.VerifySellerOtp(withCookie(in.Cookie), "000000")
		wantCode(t, err, apierr.AccountLocked)
		_, err = e.flow.VerifySellerOtp(withCookie(in.Cookie), fixedCode)
		wantCode(t, err, apierr.AccountLocked)
		// A code expires.
		e.clk.Advance(time.Hour)
		in, err = e.flow.VerifySeller(ctx, e.start(t, e.app, auth.AuthorizeParams{}), e.username, password)
		if err != nil {
			t.Fatal(err)
		}
		e.clk.Advance(auth.OTPTTL)
		_, err = e.flow.VerifySellerOtp(withCookie(in.Cookie), fixedCode)
		wantCode(t, err, apierr.Unauthorized)
		// No cookie, no session.
		_, err = e.flow.VerifySellerOtp(context.Background(), fixedCode)
		wantCode(t, err, apierr.SessionExpired)
	})
}

func TestConsentDenyAndTheCode(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		// Consent before the code, or to a scope not asked for, is refused.
		session := e.start(t, e.app, auth.AuthorizeParams{State: "s 1/2"})
		in, err := e.flow.VerifySeller(context.Background(), session, e.username, password)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.flow.Consent(withCookie(in.Cookie), nil)
		wantCode(t, err, apierr.Unauthorized)
		if _, err := e.flow.VerifySellerOtp(withCookie(in.Cookie), fixedCode); err != nil {
			t.Fatal(err)
		}
		_, err = e.flow.Consent(withCookie(in.Cookie), []string{"customer:email:read"})
		wantCode(t, err, apierr.ValidationError)
		to, err := e.flow.Consent(withCookie(in.Cookie), []string{"orders:read"})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(to)
		if u.Query().Get("state") != "s 1/2" || !strings.HasPrefix(u.Query().Get("code"), "mpac_") {
			t.Fatalf("redirect %q", to)
		}
		// The session is spent.
		_, err = e.flow.Consent(withCookie(in.Cookie), nil)
		wantCode(t, err, apierr.SessionExpired)
		_, err = e.flow.Deny(withCookie(in.Cookie))
		wantCode(t, err, apierr.SessionExpired)

		issued, err := e.flow.ExchangeCode(signedBy(e.app), u.Query().Get("code"), redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(issued.Scopes) != 1 || issued.Scopes[0] != "orders:read" || issued.SellerID != e.seller.ID {
			t.Fatalf("issued %+v", issued)
		}

		// Deny: the redirect carries access_denied and the state; a signed
		// deny must come from the session's app.
		cookie := e.signIn(t, e.start(t, e.app, auth.AuthorizeParams{State: "abc"}))
		denyCtx := metadata.NewIncomingContext(signedBy(e.other), metadata.Pairs(principal.KeyConsentSession, cookie))
		_, err = e.flow.Deny(denyCtx)
		wantCode(t, err, apierr.SessionExpired)
		to, err = e.flow.Deny(withCookie(cookie))
		if err != nil || to != redirectURI+"?error=access_denied&state=abc" {
			t.Fatalf("deny: %q %v", to, err)
		}
	})
}

func TestTokenExchange(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		code, _ := e.consent(t, e.app, auth.AuthorizeParams{}, nil)
		_, err := e.flow.ExchangeCode(signedBy(e.other), code, redirectURI, "")
		wantCode(t, err, apierr.InvalidAuthorizationCode)
		_, err = e.flow.ExchangeCode(signedBy(e.app), "mpac_unknown", redirectURI, "")
		wantCode(t, err, apierr.InvalidAuthorizationCode)
		_, err = e.flow.ExchangeCode(signedBy(e.app), code, "https://partner.example/other", "")
		wantCode(t, err, apierr.RedirectURLMismatch)
		issued, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		if issued.AccessExpiresIn != auth.AccessTokenTTL || issued.RefreshExpiresIn != auth.RefreshTokenTTL {
			t.Fatalf("lifetimes %+v", issued)
		}
		ctx := context.Background()
		if _, err := e.svc.VerifySellerToken(ctx, e.app.App.ID, e.seller.ID, issued.AccessToken); err != nil {
			t.Fatalf("the new token does not verify: %v", err)
		}
		// The code again: AUTH_CODE_USED, and what it issued is revoked.
		_, err = e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		wantCode(t, err, apierr.AuthCodeUsed)
		_, err = e.svc.VerifySellerToken(ctx, e.app.App.ID, e.seller.ID, issued.AccessToken)
		wantCode(t, err, apierr.NotFound)
		_, err = e.flow.Refresh(signedBy(e.app), issued.RefreshToken)
		wantCode(t, err, apierr.TokenRevoked)
		if ev := e.events.list(); len(ev) != 2 || !strings.HasPrefix(ev[0], "granted:") || !strings.HasPrefix(ev[1], "revoked:") {
			t.Fatalf("events %v", ev)
		}
		// An expired code.
		code, _ = e.consent(t, e.app, auth.AuthorizeParams{}, nil)
		e.clk.Advance(auth.CodeTTL)
		_, err = e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		wantCode(t, err, apierr.AuthCodeExpired)
	})
}

func TestPKCE(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		verifier := strings.Repeat("v", 50)
		sum := sha256.Sum256([]byte(verifier))
		challenge := base64.RawURLEncoding.EncodeToString(sum[:])
		code, _ := e.consent(t, e.app, auth.AuthorizeParams{CodeChallenge: challenge, CodeChallengeMethod: "S256"}, nil)
		_, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		wantCode(t, err, apierr.InvalidAuthorizationCode)
		_, err = e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, strings.Repeat("w", 50))
		wantCode(t, err, apierr.InvalidAuthorizationCode)
		if _, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, verifier); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRefreshRotatesAndReuseRevokes(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		ctx := context.Background()
		code, _ := e.consent(t, e.app, auth.AuthorizeParams{}, nil)
		first, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.flow.Refresh(signedBy(e.other), first.RefreshToken)
		wantCode(t, err, apierr.InvalidRefreshToken)
		second, err := e.flow.Refresh(signedBy(e.app), first.RefreshToken)
		if err != nil {
			t.Fatal(err)
		}
		if second.AccessToken == first.AccessToken || second.RefreshToken == first.RefreshToken {
			t.Fatal("refresh did not rotate both tokens")
		}
		if _, err := e.svc.VerifySellerToken(ctx, e.app.App.ID, e.seller.ID, second.AccessToken); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.VerifySellerToken(ctx, e.app.App.ID, e.seller.ID, first.AccessToken)
		wantCode(t, err, apierr.NotFound)
		// The first refresh token again: reuse, and the grant is revoked.
		_, err = e.flow.Refresh(signedBy(e.app), first.RefreshToken)
		wantCode(t, err, apierr.RefreshTokenReused)
		_, err = e.svc.VerifySellerToken(ctx, e.app.App.ID, e.seller.ID, second.AccessToken)
		wantCode(t, err, apierr.NotFound)
		_, err = e.flow.Refresh(signedBy(e.app), second.RefreshToken)
		wantCode(t, err, apierr.TokenRevoked)
		_, err = e.flow.Refresh(signedBy(e.app), "mprt_never-issued")
		wantCode(t, err, apierr.InvalidRefreshToken)

		// An expired refresh token, and a grant at its end.
		code, _ = e.consent(t, e.app, auth.AuthorizeParams{}, nil)
		third, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		e.clk.Advance(auth.RefreshTokenTTL)
		_, err = e.flow.Refresh(signedBy(e.app), third.RefreshToken)
		wantCode(t, err, apierr.RefreshTokenExpired)
		// Kept fresh by refreshes, a grant still ends after 365 days.
		e.clk.Advance(-auth.RefreshTokenTTL)
		tok := third.RefreshToken
		for range 12 {
			e.clk.Advance(auth.RefreshTokenTTL - time.Hour)
			next, err := e.flow.Refresh(signedBy(e.app), tok)
			if err != nil {
				t.Fatal(err)
			}
			tok = next.RefreshToken
		}
		e.clk.Advance(auth.RefreshTokenTTL - time.Hour)
		_, err = e.flow.Refresh(signedBy(e.app), tok)
		wantCode(t, err, apierr.ReAuthorizationRequired)
	})
}

func TestRevokeEndsTheAppsGrantOnly(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		ctx := context.Background()
		code, _ := e.consent(t, e.app, auth.AuthorizeParams{}, nil)
		mine, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		code, _ = e.consent(t, e.other, auth.AuthorizeParams{}, nil)
		theirs, err := e.flow.ExchangeCode(signedBy(e.other), code, redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := e.flow.Revoke(signedBy(e.app), e.seller.ID); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.VerifySellerToken(ctx, e.app.App.ID, e.seller.ID, mine.AccessToken)
		wantCode(t, err, apierr.NotFound)
		if _, err := e.svc.VerifySellerToken(ctx, e.other.App.ID, e.seller.ID, theirs.AccessToken); err != nil {
			t.Fatalf("another app's grant ended too: %v", err)
		}
		wantCode(t, e.flow.Revoke(signedBy(e.app), e.seller.ID), apierr.NotFound)
	})
}

// Passwords, codes and tokens are never stored in clear.
func TestNothingInClear(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		session := e.start(t, e.app, auth.AuthorizeParams{})
		cookie := e.signIn(t, session)
		to, err := e.flow.Consent(withCookie(cookie), nil)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(to)
		code := u.Query().Get("code")
		issued, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		refreshed, err := e.flow.Refresh(signedBy(e.app), issued.RefreshToken)
		if err != nil {
			t.Fatal(err)
		}
		secrets := []string{password, fixedCode, session, cookie, code, issued.AccessToken, issued.RefreshToken,
			refreshed.AccessToken, refreshed.RefreshToken}
		for _, table := range []string{"seller_logins", "authorization_sessions", "authorization_codes",
			"seller_authorizations", "retired_refresh_tokens"} {
			for _, row := range dbtest.Query(t, d.SQL, "SELECT * FROM "+table) {
				for _, col := range inClear(row, secrets...) {
					t.Errorf("%s.%s holds a secret in clear", table, col)
				}
			}
		}
	})
}

// The retention job's purge drops sessions, codes and retired refresh
// tokens that expired before its cut-off, and keeps the rest.
func TestFlowPurge(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		e := newFlowEnv(t, d)
		ctx := context.Background()
		code, _ := e.consent(t, e.app, auth.AuthorizeParams{}, nil)
		issued, err := e.flow.ExchangeCode(signedBy(e.app), code, redirectURI, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.flow.Refresh(signedBy(e.app), issued.RefreshToken); err != nil {
			t.Fatal(err)
		}
		count := func() (n int) {
			for _, table := range []string{"authorization_sessions", "authorization_codes", "retired_refresh_tokens"} {
				n += len(dbtest.Query(t, d.SQL, "SELECT id FROM "+table))
			}
			return n
		}
		if count() != 3 {
			t.Fatalf("%d flow rows, want a session, a code and a retired token", count())
		}
		store := auth.NewFlowEntStore(d.Ent)
		if n, err := store.Purge(ctx, e.clk.Now()); err != nil || n != 0 {
			t.Fatalf("purge before anything expired: %d %v", n, err)
		}
		// Past the code's and session's expiry, not the retired token's.
		if n, err := store.Purge(ctx, e.clk.Now().Add(auth.SessionTTL+time.Second)); err != nil || n != 2 {
			t.Fatalf("purge past the session's end: %d %v", n, err)
		}
		if n, err := store.Purge(ctx, e.clk.Now().Add(auth.RefreshTokenTTL+time.Second)); err != nil || n != 1 {
			t.Fatalf("purge past the retired token's end: %d %v", n, err)
		}
	})
}
