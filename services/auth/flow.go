package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/url"
	"slices"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// Lifetimes of the seller authorization flow (docs/decisions.md, "Seller
// authorization").
const (
	SessionTTL = policy.ConsentSessionTTL
	OTPTTL     = 5 * time.Minute
	CodeTTL    = 10 * time.Minute
	GrantTTL   = 365 * 24 * time.Hour
	// OTPAttempts wrong codes in a row lock the seller's login for
	// lockout, which is not disclosed to clients.
	OTPAttempts = 5
	lockout     = 15 * time.Minute
)

// ConsentPath is where authorize sends the seller's browser.
const ConsentPath = "/open/v1/auth/consent"

// GrantEvents records a grant's events in the transaction of its change.
type GrantEvents interface {
	Granted(ctx context.Context, g *Grant, app *App, at time.Time) error
	Revoked(ctx context.Context, g *Grant, app *App, at time.Time) error
}

// FlowConfig configures the seller authorization flow.
type FlowConfig struct {
	Store  FlowStore
	Sealer *Sealer
	Events GrantEvents
	// Sender delivers one-time codes; nil: only a test shop's fixed
	// sandbox code can be used, and other sign-ins answer 503.
	Sender OTPSender
	// Tokens is the service whose token cache a revocation clears.
	Tokens *Service
	Clock  clock.Clock
	// PasswordChecks bounds the sign-ins checking a password at once (each
	// takes 19 MiB and ~20 ms of a core; default 4): a flood of sign-ins
	// from many addresses waits for a slot, within its deadline, instead of
	// taking core's memory from every other call.
	PasswordChecks int
}

// Validate reports missing dependencies.
func (c FlowConfig) Validate() error {
	if c.Store == nil || c.Sealer == nil || c.Events == nil || c.Tokens == nil {
		return errors.New("auth: the flow needs a store, a sealer, events and the token service")
	}
	return nil
}

// Flow is the seller authorization flow: consent sessions, sign-in with a
// one-time code, codes, token exchange, refresh and revocation.
type Flow struct {
	cfg    FlowConfig
	otpKey []byte
	// checking holds a token per password check running.
	checking chan struct{}
}

// NewFlow builds the flow.
func NewFlow(cfg FlowConfig) (*Flow, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.PasswordChecks <= 0 {
		cfg.PasswordChecks = 4
	}
	// The first unknown username must not pay for making the dummy hash.
	go dummyPasswordHash()
	return &Flow{cfg: cfg, otpKey: cfg.Sealer.MACKey("one-time-code"), checking: make(chan struct{}, cfg.PasswordChecks)}, nil
}

// checkPassword runs one password check when a slot is free; a call whose
// deadline passes first answers 503.
func (f *Flow) checkPassword(ctx context.Context, hash, password string) (bool, error) {
	select {
	case f.checking <- struct{}{}:
	case <-ctx.Done():
		return false, apierr.New(apierr.ServiceUnavailable, "too many sign-ins at once; try again in a moment")
	}
	defer func() { <-f.checking }()
	return CheckPassword(hash, password)
}

func (f *Flow) now() time.Time { return f.cfg.Clock.Now() }

func (f *Flow) inTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return f.cfg.Store.InTx(ctx, fn)
}

func callingApp(ctx context.Context) (*principal.Principal, error) {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return nil, apierr.New(apierr.Unauthorized, "this call must be signed by the app")
	}
	return p, nil
}

// Started is an authorization started by Authorize.
type Started struct {
	Location  string
	ExpiresIn time.Duration
}

// AuthorizeParams is an authorize request.
type AuthorizeParams struct {
	ClientID, RedirectURI, State, CodeChallenge, CodeChallengeMethod string
}

// Authorize starts a consent session for the signing app.
func (f *Flow) Authorize(ctx context.Context, in AuthorizeParams) (*Started, error) {
	p, err := callingApp(ctx)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(in.ClientID), []byte(p.ClientID)) != 1 {
		return nil, apierr.New(apierr.ValidationError, "client_id must be the client id of the app that signs the request")
	}
	if (in.CodeChallenge == "") != (in.CodeChallengeMethod == "") {
		return nil, apierr.New(apierr.ValidationError, "code_challenge and code_challenge_method=S256 go together")
	}
	app, err := f.cfg.Store.AppByID(ctx, p.AppID)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(app.RedirectURIs, in.RedirectURI) {
		return nil, apierr.New(apierr.RedirectURLMismatch, "redirect_uri is not one of the app's registered redirect URIs (they match exactly)")
	}
	now := f.now()
	token := ids.Token(32)
	s := &ConsentSession{ID: ids.NewAt("aus", now), TokenHash: HashToken(token), AppID: app.ID, RedirectURI: in.RedirectURI,
		State: in.State, Scopes: app.Scopes, CodeChallenge: in.CodeChallenge, ExpiresAt: now.Add(SessionTTL)}
	if err := f.cfg.Store.CreateSession(ctx, s, now); err != nil {
		return nil, err
	}
	return &Started{Location: ConsentPath + "?session=" + url.QueryEscape(token), ExpiresIn: SessionTTL}, nil
}

var errSessionExpired = apierr.New(apierr.SessionExpired, "this authorization session has expired or was already used; go back to the app and start again")

// live returns the session unless it is unknown, expired or consumed.
func (f *Flow) live(s *ConsentSession, err error, now time.Time) (*ConsentSession, error) {
	if isNotFound(err) {
		return nil, errSessionExpired
	}
	if err != nil {
		return nil, err
	}
	if s.ConsumedAt != nil || !now.Before(s.ExpiresAt) {
		return nil, errSessionExpired
	}
	return s, nil
}

func (f *Flow) sessionByToken(ctx context.Context, token string, now time.Time) (*ConsentSession, error) {
	if token == "" {
		return nil, errSessionExpired
	}
	s, err := f.cfg.Store.SessionByTokenHash(ctx, HashToken(token))
	return f.live(s, err, now)
}

func (f *Flow) sessionByCookie(ctx context.Context, now time.Time) (*ConsentSession, error) {
	cookie := principal.ConsentSession(ctx)
	if cookie == "" {
		return nil, errSessionExpired
	}
	s, err := f.cfg.Store.SessionByCookieHash(ctx, HashToken(cookie))
	return f.live(s, err, now)
}

// SessionView is what the consent page shows before sign-in.
type SessionView struct {
	AppName   string
	Scopes    []string
	ExpiresIn time.Duration
}

// DescribeSession names the app and the scopes of a live session.
func (f *Flow) DescribeSession(ctx context.Context, token string) (*SessionView, error) {
	now := f.now()
	s, err := f.sessionByToken(ctx, token, now)
	if err != nil {
		return nil, err
	}
	app, err := f.cfg.Store.AppByID(ctx, s.AppID)
	if err != nil {
		return nil, err
	}
	return &SessionView{AppName: app.Name, Scopes: s.Scopes, ExpiresIn: s.ExpiresAt.Sub(now)}, nil
}

// SignedIn is a successful sign-in: a code is on its way.
type SignedIn struct {
	Cookie            string
	OTPExpiresIn      time.Duration
	MaskedDestination string
}

var errWrongCredentials = apierr.New(apierr.Unauthorized, "the username or password is wrong")

// VerifySeller signs a seller in on a session and sends a one-time code.
// Unknown usernames, wrong passwords and shops the app's environment may
// not reach all answer the same, after the same work.
func (f *Flow) VerifySeller(ctx context.Context, sessionToken, username, password string) (*SignedIn, error) {
	now := f.now()
	s, err := f.sessionByToken(ctx, sessionToken, now)
	if err != nil {
		return nil, err
	}
	app, err := f.cfg.Store.AppByID(ctx, s.AppID)
	if err != nil {
		return nil, err
	}
	login, err := f.cfg.Store.LoginByUsername(ctx, NormalizeUsername(username))
	if err != nil && !isNotFound(err) {
		return nil, err
	}
	hash := dummyPasswordHash()
	if login != nil {
		hash = login.PasswordHash
	}
	ok, err := f.checkPassword(ctx, hash, password)
	if err != nil {
		return nil, err
	}
	if login == nil || !ok || login.TestShop != (app.Environment == EnvSandbox) {
		return nil, errWrongCredentials
	}
	if login.LockedUntil != nil && now.Before(*login.LockedUntil) {
		return nil, errLocked
	}
	cookie := ids.Token(32)
	var otpMAC string
	switch {
	case login.FixedOTPHash != nil && login.TestShop:
		// A test shop's fixed sandbox code, bound to its login.
		otpMAC = *login.FixedOTPHash
	case f.cfg.Sender == nil:
		return nil, apierr.New(apierr.ServiceUnavailable, "one-time codes cannot be sent right now; try again later")
	default:
		code := newOTP()
		otpMAC = codeMAC(f.otpKey, s.ID, code)
		if err := f.cfg.Sender.SendOTP(ctx, login.Destination, code); err != nil {
			return nil, apierr.New(apierr.ServiceUnavailable, "the one-time code could not be sent; try again later")
		}
	}
	if err := f.cfg.Store.SignIn(ctx, s.ID, login.SellerID, HashToken(cookie), otpMAC, now.Add(OTPTTL)); err != nil {
		if isNotFound(err) {
			return nil, errSessionExpired
		}
		return nil, err
	}
	return &SignedIn{Cookie: cookie, OTPExpiresIn: OTPTTL, MaskedDestination: MaskDestination(login.Destination)}, nil
}

// FixedOTPHash is how a test shop's fixed sandbox code is stored: a MAC
// bound to the login (the sealer's key, as for every one-time code).
func FixedOTPHash(sealer *Sealer, sellerID, code string) string {
	return codeMAC(sealer.MACKey("one-time-code"), "fixed:"+sellerID, code)
}

// NormalizeUsername is the username as stored and looked up (the gateway's
// sign-in limit counts it the same way).
func NormalizeUsername(u string) string { return policy.NormalizeUsername(u) }

var errLocked = apierr.New(apierr.AccountLocked, "too many wrong codes: this seller's sign-in is locked for a while")

// ConsentAsk is what the seller is asked to consent to.
type ConsentAsk struct {
	AppName string
	Scopes  []string
}

// VerifySellerOtp checks the one-time code of the signed-in session.
func (f *Flow) VerifySellerOtp(ctx context.Context, code string) (*ConsentAsk, error) {
	now := f.now()
	s, err := f.sessionByCookie(ctx, now)
	if err != nil {
		return nil, err
	}
	login, err := f.cfg.Store.LoginBySeller(ctx, s.SellerID)
	if err != nil {
		return nil, err
	}
	if login.LockedUntil != nil && now.Before(*login.LockedUntil) {
		return nil, errLocked
	}
	if s.OTPHash == nil || s.OTPExpiresAt == nil || !now.Before(*s.OTPExpiresAt) {
		return nil, apierr.New(apierr.Unauthorized, "the one-time code has expired or was used; sign in again for a new one")
	}
	want := codeMAC(f.otpKey, s.ID, code)
	if login.FixedOTPHash != nil && *s.OTPHash == *login.FixedOTPHash {
		want = FixedOTPHash(f.cfg.Sealer, login.SellerID, code)
	}
	if !macEqual(want, *s.OTPHash) {
		locked, err := f.cfg.Store.OTPFailed(ctx, login.ID, OTPAttempts, now.Add(lockout), now)
		if err != nil {
			return nil, err
		}
		if locked {
			return nil, errLocked
		}
		return nil, apierr.New(apierr.Unauthorized, "the one-time code is wrong")
	}
	if err := f.inTx(ctx, func(ctx context.Context) error {
		if err := f.cfg.Store.OTPVerified(ctx, s.ID, now); err != nil {
			return err
		}
		return f.cfg.Store.OTPSucceeded(ctx, login.ID, now)
	}); err != nil {
		return nil, err
	}
	app, err := f.cfg.Store.AppByID(ctx, s.AppID)
	if err != nil {
		return nil, err
	}
	return &ConsentAsk{AppName: app.Name, Scopes: s.Scopes}, nil
}

// Consent ends a verified session with an authorization code for the scopes
// granted (nil: every scope asked) and returns the redirect URL.
func (f *Flow) Consent(ctx context.Context, scopes []string) (string, error) {
	now := f.now()
	s, err := f.sessionByCookie(ctx, now)
	if err != nil {
		return "", err
	}
	if s.OTPVerifiedAt == nil {
		return "", apierr.New(apierr.Unauthorized, "enter the one-time code before consenting")
	}
	granted := s.Scopes
	if scopes != nil {
		for _, sc := range scopes {
			if !slices.Contains(s.Scopes, sc) {
				return "", apierr.Newf(apierr.ValidationError, "scopes: the app does not ask for %q", sc)
			}
		}
		granted = dedupe(scopes)
	}
	code := "mpac_" + ids.Token(32)
	err = f.inTx(ctx, func(ctx context.Context) error {
		consumed, err := f.cfg.Store.ConsumeSession(ctx, s.ID, now)
		if err != nil {
			return err
		}
		if !consumed {
			return errSessionExpired
		}
		return f.cfg.Store.CreateCode(ctx, &AuthCode{ID: ids.NewAt("aco", now), CodeHash: HashToken(code), AppID: s.AppID,
			SellerID: s.SellerID, RedirectURI: s.RedirectURI, Scopes: granted, CodeChallenge: s.CodeChallenge,
			ExpiresAt: now.Add(CodeTTL)}, now)
	})
	if err != nil {
		return "", err
	}
	return redirectWith(s.RedirectURI, "code", code, s.State), nil
}

// Deny ends a session with access_denied and returns the redirect URL. When
// the call is signed, the signing app must be the session's.
func (f *Flow) Deny(ctx context.Context) (string, error) {
	now := f.now()
	s, err := f.sessionByCookie(ctx, now)
	if err != nil {
		return "", err
	}
	if p, signed := principal.FromContext(ctx); signed && p.AppID != s.AppID {
		return "", errSessionExpired
	}
	consumed, err := f.cfg.Store.ConsumeSession(ctx, s.ID, now)
	if err != nil {
		return "", err
	}
	if !consumed {
		return "", errSessionExpired
	}
	return redirectWith(s.RedirectURI, "error", "access_denied", s.State), nil
}

// redirectWith adds key=value and the state (when the app sent one) to the
// registered redirect URI, keeping its own query.
func redirectWith(redirectURI, key, value, state string) string {
	u, err := url.Parse(redirectURI)
	if err != nil {
		// Registered URIs are checked when registered; this is a
		// programming error.
		panic("auth: a registered redirect URI does not parse: " + err.Error())
	}
	q := u.Query()
	q.Set(key, value)
	if state != "" {
		q.Set("state", state)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func dedupe(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Issued is a grant's new token pair.
type Issued struct {
	AccessToken, RefreshToken string
	AccessExpiresIn           time.Duration
	RefreshExpiresIn          time.Duration
	SellerID                  string
	Scopes                    []string
}

func newTokenPair() (access, refresh string) {
	return "mpat_" + ids.Token(32), "mprt_" + ids.Token(32)
}

// ExchangeCode turns an authorization code into a grant and its tokens. A
// code presented a second time revokes the grant its first exchange created.
func (f *Flow) ExchangeCode(ctx context.Context, code, redirectURI, verifier string) (*Issued, error) {
	p, err := callingApp(ctx)
	if err != nil {
		return nil, err
	}
	now := f.now()
	invalid := apierr.New(apierr.InvalidAuthorizationCode, "the authorization code is not valid for this app")
	c, err := f.cfg.Store.CodeByHash(ctx, HashToken(code))
	if isNotFound(err) {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(c.AppID), []byte(p.AppID)) != 1 {
		return nil, invalid
	}
	app, err := f.cfg.Store.AppByID(ctx, c.AppID)
	if err != nil {
		return nil, err
	}
	if c.UsedAt != nil {
		return nil, f.codeReused(ctx, c, app, now)
	}
	if !now.Before(c.ExpiresAt) {
		return nil, apierr.New(apierr.AuthCodeExpired, "the authorization code has expired; send the seller through authorize again")
	}
	if redirectURI != c.RedirectURI {
		return nil, apierr.New(apierr.RedirectURLMismatch, "redirect_uri differs from the one the authorization started with")
	}
	if !pkceMatches(c.CodeChallenge, verifier) {
		return nil, apierr.New(apierr.InvalidAuthorizationCode, "code_verifier does not match the code_challenge the authorization started with")
	}
	access, refresh := newTokenPair()
	g := &Grant{Authorization: Authorization{ID: ids.NewAt("sau", now), AppID: c.AppID, SellerID: c.SellerID,
		Scopes: intersect(app.Scopes, c.Scopes), AccessTokenHash: HashToken(access), RefreshTokenHash: HashToken(refresh)},
		ExpiresAt: now.Add(GrantTTL), CreatedAt: now}
	g.AccessExpiresAt, g.RefreshExpiresAt = now.Add(AccessTokenTTL), now.Add(RefreshTokenTTL)
	err = f.inTx(ctx, func(ctx context.Context) error {
		used, err := f.cfg.Store.UseCode(ctx, c.ID, g.ID, now)
		if err != nil {
			return err
		}
		if !used {
			return errCodeRaced
		}
		// One grant per app and seller: a new consent replaces the
		// earlier grant.
		earlier, err := f.cfg.Store.ActiveGrants(ctx, c.AppID, c.SellerID)
		if err != nil {
			return err
		}
		for _, e := range earlier {
			if err := f.revoke(ctx, e, app, now); err != nil {
				return err
			}
		}
		if err := f.cfg.Store.CreateGrant(ctx, g, now); err != nil {
			return err
		}
		return f.cfg.Events.Granted(ctx, g, app, now)
	})
	if errors.Is(err, errCodeRaced) {
		// A concurrent exchange of the same code won: this one is a reuse.
		c, err := f.cfg.Store.CodeByHash(ctx, HashToken(code))
		if err != nil {
			return nil, err
		}
		return nil, f.codeReused(ctx, c, app, now)
	}
	if err != nil {
		return nil, err
	}
	return &Issued{AccessToken: access, RefreshToken: refresh, AccessExpiresIn: AccessTokenTTL, RefreshExpiresIn: RefreshTokenTTL,
		SellerID: g.SellerID, Scopes: g.Scopes}, nil
}

var errCodeRaced = errors.New("auth: the code was used concurrently")

// codeReused revokes what the code's first exchange issued and answers
// AUTH_CODE_USED: a code seen twice may have been intercepted (RFC 9700).
func (f *Flow) codeReused(ctx context.Context, c *AuthCode, app *App, now time.Time) error {
	if c.AuthorizationID != "" {
		if err := f.inTx(ctx, func(ctx context.Context) error {
			g, err := f.cfg.Store.GrantByID(ctx, c.AuthorizationID)
			if isNotFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			return f.revoke(ctx, g, app, now)
		}); err != nil {
			return err
		}
	}
	return apierr.New(apierr.AuthCodeUsed, "the authorization code was already used; the tokens issued from it are revoked")
}

// revoke revokes a grant (once) and records authorization.revoked with it.
func (f *Flow) revoke(ctx context.Context, g *Grant, app *App, now time.Time) error {
	done, err := f.cfg.Store.RevokeGrant(ctx, g.ID, now)
	if err != nil || !done {
		return err
	}
	f.cfg.Tokens.forget(g.AccessTokenHash)
	g.RevokedAt = &now
	return f.cfg.Events.Revoked(ctx, g, app, now)
}

func pkceMatches(challenge, verifier string) bool {
	if challenge == "" {
		// No challenge at authorize: a verifier now is a client mix-up.
		return verifier == ""
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	return verifier != "" && subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}

func intersect(a, b []string) []string {
	out := []string{}
	for _, s := range b {
		if slices.Contains(a, s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Refresh rotates a grant's token pair. A refresh token presented after it
// was rotated revokes the grant.
func (f *Flow) Refresh(ctx context.Context, refreshToken string) (*Issued, error) {
	p, err := callingApp(ctx)
	if err != nil {
		return nil, err
	}
	now := f.now()
	hash := HashToken(refreshToken)
	g, err := f.cfg.Store.GrantByRefreshHash(ctx, hash)
	if isNotFound(err) {
		return nil, f.unknownRefresh(ctx, p, hash, now)
	}
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(g.AppID), []byte(p.AppID)) != 1 {
		return nil, apierr.New(apierr.InvalidRefreshToken, "the refresh token is not valid for this app")
	}
	switch {
	case g.RevokedAt != nil:
		return nil, apierr.New(apierr.TokenRevoked, "the seller's authorization was revoked; send the seller through authorize again")
	case !now.Before(g.ExpiresAt):
		return nil, apierr.New(apierr.ReAuthorizationRequired, "the seller's authorization has ended (365 days); send the seller through authorize again")
	case !now.Before(g.RefreshExpiresAt):
		return nil, apierr.New(apierr.RefreshTokenExpired, "the refresh token has expired; send the seller through authorize again")
	}
	access, refresh := newTokenPair()
	accessExp, refreshExp := earliest(now.Add(AccessTokenTTL), g.ExpiresAt), earliest(now.Add(RefreshTokenTTL), g.ExpiresAt)
	var rotated bool
	err = f.inTx(ctx, func(ctx context.Context) error {
		var err error
		rotated, err = f.cfg.Store.RotateTokens(ctx, g.ID, hash, g.RefreshExpiresAt, HashToken(access), accessExp,
			HashToken(refresh), refreshExp, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	if !rotated {
		// A concurrent refresh with the same token won: this is reuse.
		return nil, f.unknownRefresh(ctx, p, hash, now)
	}
	f.cfg.Tokens.forget(g.AccessTokenHash)
	return &Issued{AccessToken: access, RefreshToken: refresh, AccessExpiresIn: accessExp.Sub(now),
		RefreshExpiresIn: refreshExp.Sub(now), SellerID: g.SellerID, Scopes: g.Scopes}, nil
}

// unknownRefresh answers a refresh token that is no grant's current one: a
// retired one of the app's is reuse, and revokes its grant.
func (f *Flow) unknownRefresh(ctx context.Context, p *principal.Principal, hash string, now time.Time) error {
	invalid := apierr.New(apierr.InvalidRefreshToken, "the refresh token is not valid for this app")
	grantID, err := f.cfg.Store.RetiredRefreshGrant(ctx, hash)
	if err != nil {
		return err
	}
	if grantID == "" {
		return invalid
	}
	err = f.inTx(ctx, func(ctx context.Context) error {
		g, err := f.cfg.Store.GrantByID(ctx, grantID)
		if err != nil {
			return err
		}
		if g.AppID != p.AppID {
			return invalid
		}
		app, err := f.cfg.Store.AppByID(ctx, g.AppID)
		if err != nil {
			return err
		}
		return f.revoke(ctx, g, app, now)
	})
	if err != nil {
		return err
	}
	return apierr.New(apierr.RefreshTokenReused, "the refresh token was already used; every token of this authorization is revoked")
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// Revoke ends the calling app's grants of a seller.
func (f *Flow) Revoke(ctx context.Context, sellerID string) error {
	p, err := callingApp(ctx)
	if err != nil {
		return err
	}
	now := f.now()
	return f.inTx(ctx, func(ctx context.Context) error {
		grants, err := f.cfg.Store.ActiveGrants(ctx, p.AppID, sellerID)
		if err != nil {
			return err
		}
		if len(grants) == 0 {
			return apierr.New(apierr.NotFound, "this app holds no authorization of that seller")
		}
		app, err := f.cfg.Store.AppByID(ctx, p.AppID)
		if err != nil {
			return err
		}
		for _, g := range grants {
			if err := f.revoke(ctx, g, app, now); err != nil {
				return err
			}
		}
		return nil
	})
}
