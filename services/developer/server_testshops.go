package developer

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
)

// ListTestShops implements DeveloperServiceServer.
func (s *Server) ListTestShops(ctx context.Context, _ *developerv1.ListTestShopsRequest) (*developerv1.ListTestShopsResponse, error) {
	a, err := s.actor(ctx, reads)
	if err != nil {
		return nil, err
	}
	shops, err := s.svc.TestShops(ctx, a)
	if err != nil {
		return nil, err
	}
	out := &developerv1.ListTestShopsResponse{Data: make([]*developerv1.TestShop, len(shops))}
	for i, r := range shops {
		out.Data[i] = testShopProto(r)
	}
	return out, nil
}

// CreateTestShop implements DeveloperServiceServer.
func (s *Server) CreateTestShop(ctx context.Context, in *developerv1.CreateTestShopRequest) (*developerv1.CreateTestShopResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	made, err := s.svc.CreateTestShop(ctx, caller(ctx), a, in.GetShopName())
	if err != nil {
		return nil, err
	}
	return &developerv1.CreateTestShopResponse{Data: &developerv1.CreatedTestShop{Shop: testShopProto(made.Shop),
		Password: made.Password, Otp: made.OTP}}, nil
}

// AuthorizeTestShop implements DeveloperServiceServer.
func (s *Server) AuthorizeTestShop(ctx context.Context, in *developerv1.AuthorizeTestShopRequest) (*developerv1.AuthorizeTestShopResponse, error) {
	a, err := s.actor(ctx, changes)
	if err != nil {
		return nil, err
	}
	t, err := s.svc.AuthorizeTestShop(ctx, caller(ctx), a, in.GetId(), in.GetAppId())
	if err != nil {
		return nil, err
	}
	return &developerv1.AuthorizeTestShopResponse{Data: &developerv1.TestShopTokens{SellerId: t.SellerID, AppId: t.AppID,
		AccessToken: t.Tokens.AccessToken, RefreshToken: t.Tokens.RefreshToken,
		AccessTokenExpiresAt: timestamppb.New(t.Tokens.AccessExpires), RefreshTokenExpiresAt: timestamppb.New(t.Tokens.RefreshExpires),
		Scopes: t.Scopes}}, nil
}

func testShopProto(r TestShopRecord) *developerv1.TestShop {
	return &developerv1.TestShop{Id: r.SellerID, ShopName: r.ShopName, Username: r.Username, CreatedAt: timestamppb.New(r.CreatedAt)}
}
