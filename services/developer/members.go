package developer

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer/mail"
)

// InvitationTTL is how long an invitation link can be accepted
// (docs/decisions.md, "Developer console: test shops, members and roles").
const InvitationTTL = 7 * 24 * time.Hour

// Members lists the actor's account's members.
func (s *Service) Members(ctx context.Context, a Actor) ([]MemberView, error) {
	if err := authorize(a, actRead); err != nil {
		return nil, err
	}
	return s.members.Members(ctx, a.Member.AccountID)
}

// roleAction is what granting or taking away role takes: an owner's
// role only an owner gives or takes.
func roleAction(role string) action {
	if role == RoleOwner {
		return actRoles
	}
	return actMembers
}

// Invite sends an invitation to join the actor's account with a role.
func (s *Service) Invite(ctx context.Context, c Caller, a Actor, email, role string) (Invitation, error) {
	if err := requireVerified(a); err != nil {
		return Invitation{}, err
	}
	if !validRole(role) {
		return Invitation{}, errRole
	}
	if err := authorize(a, roleAction(role)); err != nil {
		return Invitation{}, err
	}
	email = NormalizeEmail(email)
	if !plausibleEmail(email) {
		return Invitation{}, validation("email must be an email address")
	}
	now := s.business.Business(ctx)
	token := ids.Token(tokenBytes)
	inv := Invitation{ID: ids.NewAt("dinv", now), AccountID: a.Member.AccountID, Email: email, Role: role,
		TokenHash: auth.HashToken(token), InvitedBy: a.User.ID, ExpiresAt: now.Add(InvitationTTL), CreatedAt: now}
	var acct Account
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		if u, err := s.store.UserByEmail(ctx, email); err == nil {
			if _, err := s.store.Member(ctx, a.Member.AccountID, u.ID); err == nil {
				return errAlreadyMember
			} else if !errors.Is(err, ErrNotFound) {
				return err
			}
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		var err error
		if acct, err = s.store.Account(ctx, a.Member.AccountID); err != nil {
			return err
		}
		if err := s.members.AddInvitation(ctx, inv); err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "member.invited", inv.ID, now)
	})
	if err != nil {
		return Invitation{}, err
	}
	s.sendInvitation(ctx, a.User, acct, inv, token)
	return inv, nil
}

// sendInvitation mails the link after its transaction committed; a failure
// is logged (the inviter can invite again).
func (s *Service) sendInvitation(ctx context.Context, from User, acct Account, inv Invitation, token string) {
	if s.mail == nil {
		return
	}
	link := s.console + "invitations/accept?token=" + url.QueryEscape(token)
	err := s.mail.Send(ctx, mail.Message{To: inv.Email, Subject: "You are invited to " + acct.Name + " on the partner console",
		Text: fmt.Sprintf("Hello,\n\n%s invited you to the developer account %q as %s.\n\n"+
			"Open this link within 7 days and sign in as %s to accept:\n\n%s\n\n"+
			"No console sign-in yet? Sign up with this address first (%ssignup), verify it, then open the link again.\n"+
			"If you did not expect this, ignore this message.\n",
			from.Name, acct.Name, strings.ToLower(inv.Role), inv.Email, link, s.console)})
	if err != nil {
		s.log.Warn("invitation mail not sent", zap.String("invitation_id", inv.ID), zap.Error(err))
	}
}

// UpdateRole changes a member's role: an owner's call; the account's last
// owner keeps the role.
func (s *Service) UpdateRole(ctx context.Context, c Caller, a Actor, memberID, role string) (MemberView, error) {
	if err := requireVerified(a); err != nil {
		return MemberView{}, err
	}
	if err := authorize(a, actRoles); err != nil {
		return MemberView{}, err
	}
	if !validRole(role) {
		return MemberView{}, errRole
	}
	var out MemberView
	now := s.business.Business(ctx)
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		m, err := s.lockedMember(ctx, a.Member.AccountID, memberID)
		if err != nil {
			return err
		}
		if m.Role == RoleOwner && role != RoleOwner {
			if err := s.keepsAnOwner(ctx, a.Member.AccountID); err != nil {
				return err
			}
		}
		if err := s.members.SetRole(ctx, m.ID, role); err != nil {
			return err
		}
		m.Role = role
		out = m
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "member.role_changed:"+role, m.ID, now)
	})
	return out, err
}

// RemoveMember removes a member from the actor's account, or lets the actor
// leave it; the account's last owner can do neither.
func (s *Service) RemoveMember(ctx context.Context, c Caller, a Actor, memberID string) error {
	now := s.business.Business(ctx)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		m, err := s.lockedMember(ctx, a.Member.AccountID, memberID)
		if err != nil {
			return err
		}
		leaving := m.UserID == a.User.ID
		if !leaving {
			if err := requireVerified(a); err != nil {
				return err
			}
			if err := authorize(a, roleAction(m.Role)); err != nil {
				return err
			}
		}
		if m.Role == RoleOwner {
			if err := s.keepsAnOwner(ctx, a.Member.AccountID); err != nil {
				return err
			}
		}
		if err := s.members.RemoveMember(ctx, m.Member); err != nil {
			return err
		}
		what := "member.removed"
		if leaving {
			what = "member.left"
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, what, m.ID, now)
	})
}

// lockedMember reads a membership of the account with the account's row
// held, so that two changes to its owners count one after the other.
func (s *Service) lockedMember(ctx context.Context, accountID, memberID string) (MemberView, error) {
	if err := s.appStore.LockAccount(ctx, accountID); err != nil {
		return MemberView{}, err
	}
	m, err := s.members.MemberByID(ctx, accountID, memberID)
	if errors.Is(err, ErrNotFound) {
		return MemberView{}, errMemberNotFound
	}
	return m, err
}

// keepsAnOwner answers CONFLICT when taking one owner away would leave
// the account none.
func (s *Service) keepsAnOwner(ctx context.Context, accountID string) error {
	n, err := s.members.CountOwners(ctx, accountID)
	if err != nil {
		return err
	}
	if n <= 1 {
		return errLastOwner
	}
	return nil
}

// Invitations lists the actor's account's pending invitations, newest
// first: what a member may read, as the members are.
func (s *Service) Invitations(ctx context.Context, a Actor) ([]Invitation, error) {
	if err := authorize(a, actRead); err != nil {
		return nil, err
	}
	return s.members.PendingInvitations(ctx, a.Member.AccountID, s.business.Business(ctx))
}

// RevokeInvitation ends a pending invitation of the actor's account, as a
// newer invitation to the address would: its link answers
// VERIFICATION_LINK_USED. Revoking takes what sending it with its role
// takes.
func (s *Service) RevokeInvitation(ctx context.Context, c Caller, a Actor, id string) error {
	if err := requireVerified(a); err != nil {
		return err
	}
	now := s.business.Business(ctx)
	return s.store.InTx(ctx, func(ctx context.Context) error {
		inv, err := s.members.InvitationByID(ctx, a.Member.AccountID, id)
		if errors.Is(err, ErrNotFound) {
			return errInvitationNotFound
		}
		if err != nil {
			return err
		}
		if err := authorize(a, roleAction(inv.Role)); err != nil {
			return err
		}
		if inv.UsedAt != nil || !now.Before(inv.ExpiresAt) {
			return errInvitationNotPending
		}
		// Conditional: of a revocation and an acceptance at once, one
		// wins and the other is told.
		if err := s.members.UseInvitation(ctx, inv.ID, now); errors.Is(err, ErrLinkUsed) {
			return errInvitationNotPending
		} else if err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "member.invitation_revoked", inv.ID, now)
	})
}

// AcceptInvitation makes the signed-in person a member of the inviting
// account, as invited, and moves the session there. The invitation must be
// for the person's address.
func (s *Service) AcceptInvitation(ctx context.Context, c Caller, a Actor, token string) (Actor, error) {
	if token == "" || len(token) > 128 {
		return Actor{}, errInviteUnknown
	}
	now := s.business.Business(ctx)
	out := a
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		inv, err := s.members.InvitationByHash(ctx, auth.HashToken(token))
		if errors.Is(err, ErrNotFound) {
			return errInviteUnknown
		}
		if err != nil {
			return err
		}
		switch {
		case inv.Email != NormalizeEmail(a.User.Email):
			return errInviteOtherPerson
		case inv.UsedAt != nil:
			return errInviteUsed
		case !now.Before(inv.ExpiresAt):
			return errInviteExpired
		}
		if err := s.members.UseInvitation(ctx, inv.ID, now); errors.Is(err, ErrLinkUsed) {
			return errInviteUsed
		} else if err != nil {
			return err
		}
		m := Member{ID: ids.NewAt("dmem", now), AccountID: inv.AccountID, UserID: a.User.ID, Role: inv.Role}
		if err := s.members.AddMember(ctx, m, now); errors.Is(err, ErrAlreadyMember) {
			// Already in: the membership and its role stay as they are.
			if m, err = s.store.Member(ctx, inv.AccountID, a.User.ID); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		if err := s.members.SwitchSession(ctx, a.Session.ID, inv.AccountID); err != nil {
			return err
		}
		out.Member, out.Session.AccountID = m, inv.AccountID
		return s.audit(ctx, c, inv.AccountID, a.User.ID, "member.joined", m.ID, now)
	})
	return out, err
}
