package developer

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/consolesession"
	"github.com/mallplatform/partnerapi/ent/developerinvitation"
	"github.com/mallplatform/partnerapi/ent/developermember"
	"github.com/mallplatform/partnerapi/ent/predicate"
)

var _ MemberStore = (*EntStore)(nil)

// Members implements MemberStore.
func (s *EntStore) Members(ctx context.Context, accountID string) ([]MemberView, error) {
	rows, err := s.db(ctx).DeveloperMember.Query().Where(developermember.AccountID(accountID)).WithUser().
		Order(developermember.ByCreatedAt(), developermember.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("developer: members: %w", err)
	}
	out := make([]MemberView, len(rows))
	for i, r := range rows {
		out[i] = memberView(r)
	}
	return out, nil
}

// MemberByID implements MemberStore.
func (s *EntStore) MemberByID(ctx context.Context, accountID, memberID string) (MemberView, error) {
	r, err := s.db(ctx).DeveloperMember.Query().
		Where(developermember.AccountID(accountID), developermember.ID(memberID)).WithUser().Only(ctx)
	if ent.IsNotFound(err) {
		return MemberView{}, ErrNotFound
	}
	if err != nil {
		return MemberView{}, fmt.Errorf("developer: member: %w", err)
	}
	return memberView(r), nil
}

func memberView(r *ent.DeveloperMember) MemberView {
	v := MemberView{Member: Member{ID: r.ID, AccountID: r.AccountID, UserID: r.UserID, Role: string(r.Role)},
		CreatedAt: r.CreatedAt}
	if u := r.Edges.User; u != nil {
		v.Email, v.Name = u.Email, u.Name
	}
	return v
}

// CountOwners implements MemberStore.
func (s *EntStore) CountOwners(ctx context.Context, accountID string) (int, error) {
	n, err := s.db(ctx).DeveloperMember.Query().
		Where(developermember.AccountID(accountID), developermember.RoleEQ(developermember.RoleOWNER)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("developer: count owners: %w", err)
	}
	return n, nil
}

// SetRole implements MemberStore.
func (s *EntStore) SetRole(ctx context.Context, memberID, role string) error {
	err := s.db(ctx).DeveloperMember.UpdateOneID(memberID).SetRole(developermember.Role(role)).Exec(ctx)
	if ent.IsNotFound(err) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("developer: set role: %w", err)
	}
	return nil
}

// RemoveMember implements MemberStore.
func (s *EntStore) RemoveMember(ctx context.Context, m Member) error {
	return s.InTx(ctx, func(ctx context.Context) error {
		c := s.db(ctx)
		if _, err := c.ConsoleSession.Delete().
			Where(consolesession.AccountID(m.AccountID), consolesession.UserID(m.UserID)).Exec(ctx); err != nil {
			return fmt.Errorf("developer: remove member's sessions: %w", err)
		}
		if _, err := c.DeveloperMember.Delete().Where(developermember.ID(m.ID)).Exec(ctx); err != nil {
			return fmt.Errorf("developer: remove member: %w", err)
		}
		return nil
	})
}

// AddMember implements MemberStore. The person is looked for first, so the
// usual case needs no failed insert (which would end a PostgreSQL
// transaction); the unique index still settles a race.
func (s *EntStore) AddMember(ctx context.Context, m Member, at time.Time) error {
	c := s.db(ctx)
	exists, err := c.DeveloperMember.Query().
		Where(developermember.AccountID(m.AccountID), developermember.UserID(m.UserID)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("developer: add member: %w", err)
	}
	if exists {
		return ErrAlreadyMember
	}
	err = c.DeveloperMember.Create().SetID(m.ID).SetAccountID(m.AccountID).SetUserID(m.UserID).
		SetRole(developermember.Role(m.Role)).SetCreatedAt(at).Exec(ctx)
	if ent.IsConstraintError(err) {
		return ErrAlreadyMember
	}
	if err != nil {
		return fmt.Errorf("developer: add member: %w", err)
	}
	return nil
}

// AddInvitation implements MemberStore.
func (s *EntStore) AddInvitation(ctx context.Context, inv Invitation) error {
	return s.InTx(ctx, func(ctx context.Context) error {
		c := s.db(ctx)
		if _, err := c.DeveloperInvitation.Update().
			Where(developerinvitation.AccountID(inv.AccountID), developerinvitation.Email(inv.Email),
				developerinvitation.UsedAtIsNil()).
			SetUsedAt(inv.CreatedAt).Save(ctx); err != nil {
			return fmt.Errorf("developer: end earlier invitations: %w", err)
		}
		if err := c.DeveloperInvitation.Create().SetID(inv.ID).SetAccountID(inv.AccountID).SetEmail(inv.Email).
			SetRole(developerinvitation.Role(inv.Role)).SetTokenHash(inv.TokenHash).SetInvitedBy(inv.InvitedBy).
			SetExpiresAt(inv.ExpiresAt).SetCreatedAt(inv.CreatedAt).Exec(ctx); err != nil {
			return fmt.Errorf("developer: add invitation: %w", err)
		}
		return nil
	})
}

// PendingInvitations implements MemberStore.
func (s *EntStore) PendingInvitations(ctx context.Context, accountID string, now time.Time) ([]Invitation, error) {
	rows, err := s.db(ctx).DeveloperInvitation.Query().
		Where(developerinvitation.AccountID(accountID), developerinvitation.UsedAtIsNil(), developerinvitation.ExpiresAtGT(now)).
		Order(ent.Desc(developerinvitation.FieldCreatedAt), ent.Desc(developerinvitation.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("developer: pending invitations: %w", err)
	}
	out := make([]Invitation, len(rows))
	for i, r := range rows {
		out[i] = invitation(r)
	}
	return out, nil
}

// InvitationByID implements MemberStore.
func (s *EntStore) InvitationByID(ctx context.Context, accountID, id string) (Invitation, error) {
	return s.invitation(ctx, developerinvitation.AccountID(accountID), developerinvitation.ID(id))
}

// InvitationByHash implements MemberStore.
func (s *EntStore) InvitationByHash(ctx context.Context, tokenHash string) (Invitation, error) {
	return s.invitation(ctx, developerinvitation.TokenHash(tokenHash))
}

func (s *EntStore) invitation(ctx context.Context, where ...predicate.DeveloperInvitation) (Invitation, error) {
	r, err := s.db(ctx).DeveloperInvitation.Query().Where(where...).Only(ctx)
	if ent.IsNotFound(err) {
		return Invitation{}, ErrNotFound
	}
	if err != nil {
		return Invitation{}, fmt.Errorf("developer: invitation: %w", err)
	}
	return invitation(r), nil
}

func invitation(r *ent.DeveloperInvitation) Invitation {
	return Invitation{ID: r.ID, AccountID: r.AccountID, Email: r.Email, Role: string(r.Role), TokenHash: r.TokenHash,
		InvitedBy: r.InvitedBy, ExpiresAt: r.ExpiresAt, UsedAt: r.UsedAt, CreatedAt: r.CreatedAt}
}

// UseInvitation implements MemberStore: one conditional UPDATE, so of two
// requests with one link exactly one uses it.
func (s *EntStore) UseInvitation(ctx context.Context, id string, at time.Time) error {
	n, err := s.db(ctx).DeveloperInvitation.Update().
		Where(developerinvitation.ID(id), developerinvitation.UsedAtIsNil()).SetUsedAt(at).Save(ctx)
	if err != nil {
		return fmt.Errorf("developer: use invitation: %w", err)
	}
	if n == 0 {
		return ErrLinkUsed
	}
	return nil
}

// SwitchSession implements MemberStore.
func (s *EntStore) SwitchSession(ctx context.Context, sessionID, accountID string) error {
	err := s.db(ctx).ConsoleSession.UpdateOneID(sessionID).SetAccountID(accountID).Exec(ctx)
	if ent.IsNotFound(err) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("developer: switch session: %w", err)
	}
	return nil
}
