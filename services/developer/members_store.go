package developer

import (
	"context"
	"errors"
	"time"
)

// ErrAlreadyMember is an invitation accepted by a person already in the
// account.
var ErrAlreadyMember = errors.New("developer: already a member")

// MemberView is a membership with its person, as the members list shows it.
type MemberView struct {
	Member
	Email     string
	Name      string
	CreatedAt time.Time
}

// Invitation is an e-mailed invitation's record: its token's hash, never
// the token.
type Invitation struct {
	ID        string
	AccountID string
	Email     string
	Role      string
	TokenHash string
	InvitedBy string
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

// MemberStore keeps an account's members and invitations. Writes join the
// transaction ctx carries, if any.
type MemberStore interface {
	// Members lists the account's members with their persons, oldest
	// first.
	Members(ctx context.Context, accountID string) ([]MemberView, error)
	// MemberByID reads one of the account's memberships (ErrNotFound for
	// another account's).
	MemberByID(ctx context.Context, accountID, memberID string) (MemberView, error)
	// CountOwners counts the account's owners.
	CountOwners(ctx context.Context, accountID string) (int, error)
	// SetRole changes a membership's role.
	SetRole(ctx context.Context, memberID, role string) error
	// RemoveMember deletes a membership and its person's sessions in that
	// account.
	RemoveMember(ctx context.Context, m Member) error
	// AddMember inserts a membership (ErrAlreadyMember when the person has
	// one in the account).
	AddMember(ctx context.Context, m Member, at time.Time) error
	// AddInvitation inserts an invitation and ends (marks used) the
	// account's earlier unused invitations to the same address.
	AddInvitation(ctx context.Context, inv Invitation) error
	// PendingInvitations lists the account's invitations neither used
	// (accepted, revoked or replaced) nor expired at now, newest first.
	PendingInvitations(ctx context.Context, accountID string, now time.Time) ([]Invitation, error)
	// InvitationByID reads one of the account's invitations (ErrNotFound
	// for another account's).
	InvitationByID(ctx context.Context, accountID, id string) (Invitation, error)
	// InvitationByHash finds an invitation by its token's hash
	// (ErrNotFound).
	InvitationByHash(ctx context.Context, tokenHash string) (Invitation, error)
	// UseInvitation marks an unused invitation used, which accepting and
	// revoking it both do (ErrLinkUsed when another request used it
	// first).
	UseInvitation(ctx context.Context, id string, at time.Time) error
	// SwitchSession moves a session to another account of its person.
	SwitchSession(ctx context.Context, sessionID, accountID string) error
}
