package developer

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/timestamppb"

	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// Server exposes Service as mp.developer.v1.DeveloperService.
type Server struct {
	developerv1.UnimplementedDeveloperServiceServer
	svc *Service
}

// NewServer wraps svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) { developerv1.RegisterDeveloperServiceServer(r, s) }

// Whether a method changes something, and so needs the session's CSRF
// token. The console routes' verbs say the same once they are declared.
const (
	reads   = false
	changes = true
)

func caller(ctx context.Context) Caller {
	_, _, ip := principal.ConsoleCall(ctx)
	return Caller{ClientIP: ip}
}

// actor resolves the call's console session, and tells the gateway which
// account the session acts in (its per-account rate limit).
func (s *Server) actor(ctx context.Context, mutating bool) (Actor, error) {
	session, csrf, _ := principal.ConsoleCall(ctx)
	a, err := s.svc.Authenticate(ctx, session, csrf, mutating)
	if err == nil {
		// Outside a gRPC call (a test calling the server directly) there
		// is no header to set.
		_ = grpc.SetHeader(ctx, metadata.Pairs(principal.KeyConsoleAccount, a.Member.AccountID))
	}
	return a, err
}

// SignUp implements DeveloperServiceServer.
func (s *Server) SignUp(ctx context.Context, in *developerv1.SignUpRequest) (*developerv1.SignUpResponse, error) {
	out, err := s.svc.SignUp(ctx, caller(ctx), SignUp{Email: in.GetEmail(), Password: in.GetPassword(), Name: in.GetName(),
		DeveloperType: in.GetDeveloperType()})
	if err != nil {
		return nil, err
	}
	return &developerv1.SignUpResponse{Data: &developerv1.SignedUp{AccountId: out.AccountID, Email: out.Email}}, nil
}

// Verify implements DeveloperServiceServer.
func (s *Server) Verify(ctx context.Context, in *developerv1.VerifyRequest) (*developerv1.VerifyResponse, error) {
	if err := s.svc.Verify(ctx, in.GetToken()); err != nil {
		return nil, err
	}
	return &developerv1.VerifyResponse{}, nil
}

// ResendVerification implements DeveloperServiceServer.
func (s *Server) ResendVerification(ctx context.Context, in *developerv1.ResendVerificationRequest) (*developerv1.ResendVerificationResponse, error) {
	if err := s.svc.ResendVerification(ctx, in.GetEmail()); err != nil {
		return nil, err
	}
	return &developerv1.ResendVerificationResponse{}, nil
}

// SignIn implements DeveloperServiceServer.
func (s *Server) SignIn(ctx context.Context, in *developerv1.SignInRequest) (*developerv1.SessionResponse, error) {
	out, err := s.svc.SignIn(ctx, caller(ctx), in.GetEmail(), in.GetPassword(), in.GetAccountId())
	if err != nil {
		return nil, err
	}
	return &developerv1.SessionResponse{Data: sessionProto(out.Actor, out.CSRFToken), Session: out.Token}, nil
}

// GetSession implements DeveloperServiceServer.
func (s *Server) GetSession(ctx context.Context, _ *developerv1.GetSessionRequest) (*developerv1.SessionResponse, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	session, _, _ := principal.ConsoleCall(ctx)
	return &developerv1.SessionResponse{Data: sessionProto(a, CSRFToken(session))}, nil
}

// SignOut implements DeveloperServiceServer.
func (s *Server) SignOut(ctx context.Context, _ *developerv1.SignOutRequest) (*developerv1.SignOutResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	if err := s.svc.SignOut(ctx, a); err != nil {
		return nil, err
	}
	return &developerv1.SignOutResponse{}, nil
}

// GetAccount implements DeveloperServiceServer.
func (s *Server) GetAccount(ctx context.Context, _ *developerv1.GetAccountRequest) (*developerv1.AccountResponse, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	return s.account(ctx, a)
}

// DeleteAccount implements DeveloperServiceServer.
func (s *Server) DeleteAccount(ctx context.Context, _ *developerv1.DeleteAccountRequest) (*developerv1.DeleteAccountResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	if err := s.svc.DeleteAccount(ctx, caller(ctx), a); err != nil {
		return nil, err
	}
	return &developerv1.DeleteAccountResponse{}, nil
}

// SubmitProfile implements DeveloperServiceServer.
func (s *Server) SubmitProfile(ctx context.Context, in *developerv1.SubmitProfileRequest) (*developerv1.AccountResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	ad := in.GetAddress()
	p := Profile{FullName: in.GetFullName(), DateOfBirth: in.GetDateOfBirth(), IDType: in.GetIdType(), IDNumber: in.GetIdNumber(),
		RegisteredName: in.GetRegisteredName(), RegistrationNumber: in.GetRegistrationNumber(),
		Address: Address{Line1: ad.GetLine1(), City: ad.GetCity(), Province: ad.GetProvince(), PostalCode: ad.GetPostalCode(),
			Country: ad.GetCountry()}}
	if err := s.svc.SubmitProfile(ctx, caller(ctx), a, p); err != nil {
		return nil, err
	}
	return s.account(ctx, a)
}

func (s *Server) account(ctx context.Context, a Actor) (*developerv1.AccountResponse, error) {
	v, err := s.svc.Account(ctx, a)
	if err != nil {
		return nil, err
	}
	out := &developerv1.Account{AccountId: v.Account.ID, Name: v.Account.Name, Email: v.Account.Email,
		DeveloperType: v.Account.DeveloperType, EmailVerified: v.EmailVerified, Role: v.Role,
		CreatedAt: timestamppb.New(v.Account.CreatedAt)}
	if v.Account.ProfileStatus != "" {
		out.ProfileStatus = &v.Account.ProfileStatus
	}
	if v.Account.ProfileSubmittedAt != nil {
		out.ProfileSubmittedAt = timestamppb.New(*v.Account.ProfileSubmittedAt)
	}
	return &developerv1.AccountResponse{Data: out}, nil
}

func sessionProto(a Actor, csrf string) *developerv1.Session {
	return &developerv1.Session{AccountId: a.Member.AccountID, UserId: a.User.ID, Email: a.User.Email, Role: a.Member.Role,
		EmailVerified: a.User.Verified(), CsrfToken: csrf}
}
