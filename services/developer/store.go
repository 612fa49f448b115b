package developer

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrNotFound is a row that does not exist (or is not the caller's).
var ErrNotFound = errors.New("developer: not found")

// ErrEmailTaken is a sign-up with an address a person or an account
// already has.
var ErrEmailTaken = errors.New("developer: email already registered")

// ErrLinkUsed is a link used by another request first.
var ErrLinkUsed = errors.New("developer: link already used")

// ErrProfileLocked is a profile submission while one is pending or approved.
var ErrProfileLocked = errors.New("developer: profile already submitted")

// Developer types, as sent at sign-up.
const (
	TypeIndividual = "INDIVIDUAL"
	TypeBusiness   = "BUSINESS"
)

// Roles of a member (what each may do: roles.go).
const (
	RoleOwner     = "OWNER"
	RoleAdmin     = "ADMIN"
	RoleDeveloper = "DEVELOPER"
	RoleViewer    = "VIEWER"
)

// Profile review states.
const (
	ProfilePending  = "pending"
	ProfileApproved = "approved"
	ProfileRejected = "rejected"
)

// LinkVerify is the kind of an address verification link.
const LinkVerify = "verify"

// User is a person who signs in to the console.
type User struct {
	ID              string
	Email           string
	Name            string
	PasswordHash    string
	EmailVerifiedAt *time.Time
	CreatedAt       time.Time
}

// Verified reports whether the person has followed a verification link.
func (u User) Verified() bool { return u.EmailVerifiedAt != nil }

// Account is a developer account as the console shows it.
type Account struct {
	ID                 string
	Name               string
	Email              string
	DeveloperType      string // empty for an account an operator created
	ProfileStatus      string // empty until a profile is submitted
	Profile            json.RawMessage
	ProfileSubmittedAt *time.Time
	CreatedAt          time.Time
}

// Member is a person's role in an account.
type Member struct {
	ID        string
	AccountID string
	UserID    string
	Role      string
}

// Link is an e-mailed link's record: its token's hash, never the token.
type Link struct {
	ID        string
	Kind      string
	TokenHash string
	UserID    string
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

// Session is a signed-in person acting in one account.
type Session struct {
	ID         string
	TokenHash  string
	UserID     string
	AccountID  string
	ClientIP   string
	LastSeenAt time.Time
	CreatedAt  time.Time
}

// SessionActor is a session with what acting in it takes: its person, and
// the person's membership in the session's account (nil when the person was
// removed from it since signing in).
type SessionActor struct {
	Session Session
	User    User
	Member  *Member
}

// AuditEntry is one change made from the console (or by an operator, with
// no user).
type AuditEntry struct {
	ID        string
	AccountID string
	UserID    string
	Action    string
	SubjectID string
	ClientIP  string
	CreatedAt time.Time
}

// NewSignup is what a sign-up inserts together.
type NewSignup struct {
	Account Account
	User    User
	Member  Member
}

// Store keeps console users, their memberships, links, sessions and audit
// entries, and the console's side of developer accounts. Writes join the
// transaction ctx carries, if any.
type Store interface {
	// CreateSignup inserts the account, the person and the membership
	// (ErrEmailTaken when a person or an account already has the address).
	CreateSignup(ctx context.Context, s NewSignup) error
	// UserByEmail finds a person by lower-cased address (ErrNotFound).
	UserByEmail(ctx context.Context, email string) (User, error)
	// User reads a person (ErrNotFound).
	User(ctx context.Context, id string) (User, error)
	// MarkVerified records that the person's address is verified.
	MarkVerified(ctx context.Context, userID string, at time.Time) error

	// AddLink inserts a link and ends (marks used) the person's earlier
	// unused links of its kind.
	AddLink(ctx context.Context, l Link) error
	// LinkByHash finds a link by its token's hash (ErrNotFound).
	LinkByHash(ctx context.Context, tokenHash string) (Link, error)
	// UseLink marks an unused link used (ErrLinkUsed when another request
	// used it first).
	UseLink(ctx context.Context, id string, at time.Time) error

	// Account reads an account (ErrNotFound).
	Account(ctx context.Context, id string) (Account, error)
	// Memberships lists the person's memberships, oldest first.
	Memberships(ctx context.Context, userID string) ([]Member, error)
	// Member reads the person's membership of an account (ErrNotFound).
	Member(ctx context.Context, accountID, userID string) (Member, error)
	// CountApps counts the account's apps by environment.
	CountApps(ctx context.Context, accountID string) (sandbox, live int, err error)
	// DeleteAccount removes the account, its memberships and sessions, and
	// every person left without an account (with their links and
	// sessions). The caller has checked it has no apps.
	DeleteAccount(ctx context.Context, accountID string) error
	// SubmitProfile stores a profile as pending unless one is pending or
	// approved (ErrProfileLocked).
	SubmitProfile(ctx context.Context, accountID string, profile json.RawMessage, at time.Time) error
	// ReviewProfile records an operator's decision on a pending profile
	// (ErrNotFound when there is none pending).
	ReviewProfile(ctx context.Context, accountID, status string, at time.Time) error

	// CreateSession inserts a session.
	CreateSession(ctx context.Context, s Session) error
	// SessionActor finds a session by its token's hash with its person and
	// the person's membership in the session's account, in one read
	// (ErrNotFound: no such session).
	SessionActor(ctx context.Context, tokenHash string) (SessionActor, error)
	// TouchSession moves a session's last call time.
	TouchSession(ctx context.Context, id string, at time.Time) error
	// DeleteSession ends a session.
	DeleteSession(ctx context.Context, id string) error

	// Audit appends an entry.
	Audit(ctx context.Context, e AuditEntry) error
	// AuditEntries lists an account's entries, oldest first.
	AuditEntries(ctx context.Context, accountID string) ([]AuditEntry, error)
	// InTx runs fn in one transaction (joining ctx's, if any).
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
}
