package developer

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// ListMembers implements DeveloperServiceServer.
func (s *Server) ListMembers(ctx context.Context, _ *developerv1.ListMembersRequest) (*developerv1.ListMembersResponse, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	ms, err := s.svc.Members(ctx, a)
	if err != nil {
		return nil, err
	}
	out := &developerv1.ListMembersResponse{Data: make([]*developerv1.Member, len(ms))}
	for i, m := range ms {
		out.Data[i] = memberProto(m)
	}
	return out, nil
}

// InviteMember implements DeveloperServiceServer.
func (s *Server) InviteMember(ctx context.Context, in *developerv1.InviteMemberRequest) (*developerv1.InviteMemberResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	inv, err := s.svc.Invite(ctx, caller(ctx), a, in.GetEmail(), in.GetRole())
	if err != nil {
		return nil, err
	}
	return &developerv1.InviteMemberResponse{Data: invitationProto(inv)}, nil
}

// ListInvitations implements DeveloperServiceServer.
func (s *Server) ListInvitations(ctx context.Context, _ *developerv1.ListInvitationsRequest) (*developerv1.ListInvitationsResponse, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	invs, err := s.svc.Invitations(ctx, a)
	if err != nil {
		return nil, err
	}
	out := &developerv1.ListInvitationsResponse{Data: make([]*developerv1.Invitation, len(invs))}
	for i, inv := range invs {
		out.Data[i] = invitationProto(inv)
	}
	return out, nil
}

// RevokeInvitation implements DeveloperServiceServer.
func (s *Server) RevokeInvitation(ctx context.Context, in *developerv1.RevokeInvitationRequest) (*developerv1.RevokeInvitationResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	if err := s.svc.RevokeInvitation(ctx, caller(ctx), a, in.GetId()); err != nil {
		return nil, err
	}
	return &developerv1.RevokeInvitationResponse{}, nil
}

func invitationProto(inv Invitation) *developerv1.Invitation {
	return &developerv1.Invitation{Id: inv.ID, Email: inv.Email, Role: inv.Role, ExpiresAt: timestamppb.New(inv.ExpiresAt),
		InvitedAt: timestamppb.New(inv.CreatedAt)}
}

// UpdateMember implements DeveloperServiceServer.
func (s *Server) UpdateMember(ctx context.Context, in *developerv1.UpdateMemberRequest) (*developerv1.MemberResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	m, err := s.svc.UpdateRole(ctx, caller(ctx), a, in.GetId(), in.GetRole())
	if err != nil {
		return nil, err
	}
	return &developerv1.MemberResponse{Data: memberProto(m)}, nil
}

// RemoveMember implements DeveloperServiceServer.
func (s *Server) RemoveMember(ctx context.Context, in *developerv1.RemoveMemberRequest) (*developerv1.RemoveMemberResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	if err := s.svc.RemoveMember(ctx, caller(ctx), a, in.GetId()); err != nil {
		return nil, err
	}
	return &developerv1.RemoveMemberResponse{}, nil
}

// AcceptInvitation implements DeveloperServiceServer.
func (s *Server) AcceptInvitation(ctx context.Context, in *developerv1.AcceptInvitationRequest) (*developerv1.SessionResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	joined, err := s.svc.AcceptInvitation(ctx, caller(ctx), a, in.GetToken())
	if err != nil {
		return nil, err
	}
	session, _, _ := principal.ConsoleCall(ctx)
	return &developerv1.SessionResponse{Data: sessionProto(joined, CSRFToken(session))}, nil
}

func memberProto(m MemberView) *developerv1.Member {
	return &developerv1.Member{Id: m.ID, UserId: m.UserID, Email: m.Email, Name: m.Name, Role: m.Role,
		CreatedAt: timestamppb.New(m.CreatedAt)}
}
