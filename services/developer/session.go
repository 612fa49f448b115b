package developer

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"

	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/auth"
)

// csrfLabel separates the CSRF token's HMAC from any other use of the
// session token.
const csrfLabel = "mp-console-csrf-v1"

// SignedIn is a new session: the token goes into the cookie, the CSRF token
// to the page.
type SignedIn struct {
	Token     string
	CSRFToken string
	Actor     Actor
}

// Actor is a signed-in person acting in one account.
type Actor struct {
	Session Session
	User    User
	Member  Member
}

// CSRFToken is the anti-forgery token of a session token: an HMAC keyed by
// the session token, so it is never stored, can be given again to a page
// that reloads, and tells nothing about the cookie.
func CSRFToken(sessionToken string) string {
	m := hmac.New(sha256.New, []byte(sessionToken))
	m.Write([]byte(csrfLabel))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// SignIn checks a person's password and opens a session in accountID (the
// person's first account when empty).
func (s *Service) SignIn(ctx context.Context, c Caller, email, password, accountID string) (SignedIn, error) {
	u, err := s.store.UserByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, ErrNotFound) {
		_, _ = auth.CheckPassword(s.dummyHash(), password)
		return SignedIn{}, errSignIn
	}
	if err != nil {
		return SignedIn{}, err
	}
	ok, err := auth.CheckPassword(u.PasswordHash, password)
	if err != nil {
		return SignedIn{}, err
	}
	if !ok {
		return SignedIn{}, errSignIn
	}
	var m Member
	if accountID == "" {
		ms, err := s.store.Memberships(ctx, u.ID)
		if err != nil {
			return SignedIn{}, err
		}
		if len(ms) == 0 {
			return SignedIn{}, errNotMember
		}
		m = ms[0]
	} else if m, err = s.store.Member(ctx, accountID, u.ID); errors.Is(err, ErrNotFound) {
		return SignedIn{}, errNotMember
	} else if err != nil {
		return SignedIn{}, err
	}
	now := s.clock.Now()
	token := ids.Token(tokenBytes)
	ss := Session{ID: ids.NewAt("dses", now), TokenHash: auth.HashToken(token), UserID: u.ID, AccountID: m.AccountID,
		ClientIP: c.ClientIP, LastSeenAt: now, CreatedAt: now}
	if err := s.store.CreateSession(ctx, ss); err != nil {
		return SignedIn{}, err
	}
	return SignedIn{Token: token, CSRFToken: CSRFToken(token), Actor: Actor{Session: ss, User: u, Member: m}}, nil
}

// Authenticate resolves a session token: 401 UNAUTHORIZED when there is
// none, it is unknown or it has been idle for SessionIdle. mutating calls
// must carry the session's CSRF token (403 FORBIDDEN otherwise).
func (s *Service) Authenticate(ctx context.Context, token, csrf string, mutating bool) (Actor, error) {
	if token == "" || len(token) > 512 {
		return Actor{}, errNoSession
	}
	found, err := s.store.SessionActor(ctx, auth.HashToken(token))
	if errors.Is(err, ErrNotFound) {
		return Actor{}, errNoSession
	}
	if err != nil {
		return Actor{}, err
	}
	ss := found.Session
	now := s.clock.Now()
	if now.Sub(ss.LastSeenAt) >= SessionIdle {
		if err := s.store.DeleteSession(ctx, ss.ID); err != nil {
			return Actor{}, err
		}
		return Actor{}, errNoSession
	}
	if mutating && subtle.ConstantTimeCompare([]byte(csrf), []byte(CSRFToken(token))) != 1 {
		return Actor{}, errCSRF
	}
	if found.Member == nil {
		// Removed from the account since signing in.
		return Actor{}, errNoSession
	}
	if now.Sub(ss.LastSeenAt) >= sessionTouchEvery {
		if err := s.store.TouchSession(ctx, ss.ID, now); err != nil {
			return Actor{}, err
		}
		ss.LastSeenAt = now
	}
	return Actor{Session: ss, User: found.User, Member: *found.Member}, nil
}

// SignOut ends the actor's session.
func (s *Service) SignOut(ctx context.Context, a Actor) error {
	return s.store.DeleteSession(ctx, a.Session.ID)
}
