// Package developer is the developer console's core: partners sign up,
// verify their address, sign in and manage their accounts (and, through the
// auth domain's steps, their apps) without an operator.
package developer

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer/mail"
)

// Lifetimes (docs/decisions.md, "Developer console").
const (
	// VerificationTTL is how long a verification link can be used.
	VerificationTTL = 24 * time.Hour
	// SessionIdle ends a session after this long without a call (the
	// gateway's cookie lapses with it).
	SessionIdle = policy.ConsoleSessionIdle
	// Retention keeps an idle session's row and an expired link's this
	// long: a link followed in that week still answers
	// VERIFICATION_TOKEN_EXPIRED rather than INVALID_VERIFICATION_TOKEN.
	Retention = 7 * 24 * time.Hour
	// sessionTouchEvery bounds how often a session's last call time is
	// written: reads do not each cost a write.
	sessionTouchEvery = time.Minute
)

// Password bounds, in characters.
const (
	MinPasswordLen = 12
	maxPasswordLen = 256
)

// tokenBytes is the randomness of session tokens and e-mailed links.
const tokenBytes = 32

// Config assembles a Service.
type Config struct {
	Store Store
	// Clock is security time: session idleness.
	Clock clock.Clock
	// Business is the business clock: link expiry, profile and audit times.
	Business clock.Business
	// Mail sends links; nil sends nothing (tests that read links from the
	// store's side do not need it).
	Mail mail.Sender
	// ConsoleURL is the console pages' absolute address, ending in "/":
	// links point at its verify page.
	ConsoleURL string
	Logger     *zap.Logger
	// Apps are the auth domain's app steps; AppStore reads apps (the ent
	// store, when Store is one, by default).
	Apps     Apps
	AppStore AppStore
	// Limits are the apps per account (zero fields: the defaults).
	Limits Limits
	// Members keeps members and invitations, TestShops the account's test
	// shops (the ent store, when Store is one, by default).
	Members   MemberStore
	TestShops TestShopStore
	// ShopMaker makes test shops as the sandbox seed does; nil: creating
	// one fails.
	ShopMaker ShopMaker
	// Grants authorise a test shop for an app: the auth domain's step (Apps,
	// when it has it, by default).
	Grants Grants
	// APIURLs are the API's base URLs by app environment (sandbox,
	// production) written into credentials files; an environment without
	// one gets ConsoleURL's origin.
	APIURLs map[string]string
	// PasswordCost is the cost of new password hashes (zero: the
	// production cost; below it only with TestOnly, which test
	// environments set: a sign-up at the production cost takes a fifth of
	// a second, more under the race detector).
	PasswordCost auth.PasswordCost
}

// Limits are an account's most apps of each environment.
type Limits struct {
	SandboxApps int
	LiveApps    int
	// TestShops per account (MP_CONSOLE_TEST_SHOPS).
	TestShops int
}

// Service holds the console's use cases.
type Service struct {
	store    Store
	clock    clock.Clock
	business clock.Business
	mail     mail.Sender
	console  string
	log      *zap.Logger
	apps     Apps
	appStore AppStore
	limits   Limits
	members  MemberStore
	shops    TestShopStore
	maker    ShopMaker
	grants   Grants
	apiURLs  map[string]string
	cost     auth.PasswordCost
	// dummyHash is checked against when no person has the address, so an
	// unknown address costs the same time as a wrong password: made at the
	// service's cost on first use.
	dummyHash func() string
}

// NewService builds the service.
func NewService(c Config) (*Service, error) {
	if c.Store == nil || c.Clock == nil || c.Business == nil {
		return nil, errors.New("developer: a store and both clocks are required")
	}
	u, err := url.Parse(c.ConsoleURL)
	if err != nil || !u.IsAbs() || !strings.HasSuffix(u.Path, "/") {
		return nil, errors.New("developer: the console URL must be absolute and end in /")
	}
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.AppStore == nil {
		c.AppStore, _ = c.Store.(AppStore)
	}
	if c.Limits.SandboxApps <= 0 {
		c.Limits.SandboxApps = DefaultSandboxApps
	}
	if c.Limits.LiveApps <= 0 {
		c.Limits.LiveApps = DefaultLiveApps
	}
	if c.Limits.TestShops <= 0 {
		c.Limits.TestShops = DefaultTestShops
	}
	if c.Members == nil {
		c.Members, _ = c.Store.(MemberStore)
	}
	if c.TestShops == nil {
		c.TestShops, _ = c.Store.(TestShopStore)
	}
	if c.Grants == nil {
		c.Grants, _ = c.Apps.(Grants)
	}
	if c.Members == nil || c.TestShops == nil {
		return nil, errors.New("developer: a member store and a test shop store are required")
	}
	if err := c.PasswordCost.Validate(); err != nil {
		return nil, err
	}
	return &Service{store: c.Store, clock: c.Clock, business: c.Business, mail: c.Mail, console: c.ConsoleURL,
		log: c.Logger, apps: c.Apps, appStore: c.AppStore, limits: c.Limits, members: c.Members, shops: c.TestShops,
		maker: c.ShopMaker, grants: c.Grants, apiURLs: c.APIURLs, cost: c.PasswordCost,
		dummyHash: sync.OnceValue(func() string {
			h, err := c.PasswordCost.Hash("no console user has this password")
			if err != nil {
				panic(err)
			}
			return h
		})}, nil
}

// Caller is where a console call comes from.
type Caller struct {
	ClientIP string
}

// SignUp is a sign-up's input.
type SignUp struct {
	Email         string
	Password      string
	Name          string
	DeveloperType string
}

// SignedUp is a sign-up's answer.
type SignedUp struct {
	AccountID string
	Email     string
}

// NormalizeEmail is an address as it is stored and looked up.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// SignUp creates an account, its owner and the first verification link, and
// sends the link once they are stored.
func (s *Service) SignUp(ctx context.Context, c Caller, in SignUp) (SignedUp, error) {
	email := NormalizeEmail(in.Email)
	name := strings.TrimSpace(in.Name)
	switch {
	case in.DeveloperType != TypeIndividual && in.DeveloperType != TypeBusiness:
		return SignedUp{}, errDeveloperType
	case !plausibleEmail(email):
		return SignedUp{}, validation("email must be an email address")
	case name == "" || utf8.RuneCountInString(name) > 200:
		return SignedUp{}, validation("name must be 1 to 200 characters")
	case utf8.RuneCountInString(in.Password) < MinPasswordLen || utf8.RuneCountInString(in.Password) > maxPasswordLen:
		return SignedUp{}, validation(fmt.Sprintf("password must be %d to %d characters", MinPasswordLen, maxPasswordLen))
	}
	hash, err := s.cost.Hash(in.Password)
	if err != nil {
		return SignedUp{}, err
	}
	now := s.business.Business(ctx)
	acct := Account{ID: ids.NewAt("acc", now), Name: name, Email: email, DeveloperType: in.DeveloperType, CreatedAt: now}
	user := User{ID: ids.NewAt("dusr", now), Email: email, Name: name, PasswordHash: hash, CreatedAt: now}
	token, link := s.newLink(user.ID, now)
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		err := s.store.CreateSignup(ctx, NewSignup{Account: acct, User: user,
			Member: Member{ID: ids.NewAt("dmem", now), AccountID: acct.ID, UserID: user.ID, Role: RoleOwner}})
		if err != nil {
			return err
		}
		if err := s.store.AddLink(ctx, link); err != nil {
			return err
		}
		return s.audit(ctx, c, acct.ID, user.ID, "account.created", "", now)
	})
	if errors.Is(err, ErrEmailTaken) {
		return SignedUp{}, errEmailTaken
	}
	if err != nil {
		return SignedUp{}, err
	}
	s.sendVerification(ctx, user, token)
	return SignedUp{AccountID: acct.ID, Email: email}, nil
}

func plausibleEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	return at > 0 && at < len(s)-1 && len(s) <= 254 && !strings.ContainsAny(s, " \t\r\n<>\"") &&
		strings.Contains(s[at+1:], ".")
}

// newLink makes a verification link: the token for the message, its
// record (the token's hash) for the store.
func (s *Service) newLink(userID string, now time.Time) (string, Link) {
	token := ids.Token(tokenBytes)
	return token, Link{ID: ids.NewAt("dlnk", now), Kind: LinkVerify, TokenHash: auth.HashToken(token), UserID: userID,
		ExpiresAt: now.Add(VerificationTTL), CreatedAt: now}
}

// sendVerification mails the link after its transaction committed. A
// failure is logged, never answered: the account exists and a new link can
// be asked for.
func (s *Service) sendVerification(ctx context.Context, u User, token string) {
	if s.mail == nil {
		return
	}
	link := s.console + "verify?token=" + url.QueryEscape(token)
	err := s.mail.Send(ctx, mail.Message{To: u.Email, Subject: "Verify your email address",
		Text: fmt.Sprintf("Hello %s,\n\nOpen this link within 24 hours to verify your email address for the "+
			"partner console:\n\n%s\n\nIf you did not sign up, ignore this message.\n", u.Name, link)})
	if err != nil {
		s.log.Warn("verification mail not sent", zap.String("user_id", u.ID), zap.Error(err))
	}
}

// Verify uses a verification link.
func (s *Service) Verify(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return errLinkUnknown
	}
	now := s.business.Business(ctx)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		l, err := s.store.LinkByHash(ctx, auth.HashToken(token))
		if errors.Is(err, ErrNotFound) || (err == nil && l.Kind != LinkVerify) {
			return errLinkUnknown
		}
		if err != nil {
			return err
		}
		if l.UsedAt != nil {
			return errLinkUsed
		}
		if !now.Before(l.ExpiresAt) {
			return errLinkExpired
		}
		if err := s.store.UseLink(ctx, l.ID, now); err != nil {
			if errors.Is(err, ErrLinkUsed) {
				return errLinkUsed
			}
			return err
		}
		return s.store.MarkVerified(ctx, l.UserID, now)
	})
}

// ResendVerification sends a new link to an address that has something to
// verify. It answers the same whether or not the address is registered.
func (s *Service) ResendVerification(ctx context.Context, email string) error {
	u, err := s.store.UserByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if u.Verified() {
		return nil
	}
	now := s.business.Business(ctx)
	token, link := s.newLink(u.ID, now)
	if err := s.store.AddLink(ctx, link); err != nil {
		return err
	}
	s.sendVerification(ctx, u, token)
	return nil
}
