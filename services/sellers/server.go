package sellers

import (
	"context"

	"google.golang.org/grpc"

	sellersv1 "github.com/mallplatform/partnerapi/gen/mp/sellers/v1"
)

// Server exposes Service as mp.sellers.v1.SellersService.
type Server struct {
	sellersv1.UnimplementedSellersServiceServer
	svc *Service
}

// NewServer wraps svc.
func NewServer(svc *Service) *Server { return &Server{svc: svc} }

// Register registers the service; its signature fits core.Registrar.
func (s *Server) Register(r grpc.ServiceRegistrar) { sellersv1.RegisterSellersServiceServer(r, s) }

// GetMe reads the calling seller's shop.
func (s *Server) GetMe(ctx context.Context, _ *sellersv1.GetMeRequest) (*sellersv1.MeResponse, error) {
	shop, addrs, err := s.svc.Me(ctx)
	if err != nil {
		return nil, err
	}
	out := &sellersv1.Seller{SellerId: shop.SellerID, ShopName: shop.ShopName,
		PickupAddresses: make([]*sellersv1.PickupAddress, len(addrs))}
	for i, a := range addrs {
		out.PickupAddresses[i] = toProto(a)
	}
	return &sellersv1.MeResponse{Data: out}, nil
}

func toProto(a PickupAddress) *sellersv1.PickupAddress {
	p := &sellersv1.PickupAddress{
		AddressId: a.ID, IsDefault: a.IsDefault, Name: a.Name, Line1: a.Line1,
		City: a.City, Province: a.Province, Region: a.Region, PostalCode: a.PostalCode,
		Phone: a.Phone, PsgcCode: a.PSGCCode,
	}
	if a.Line2 != "" {
		p.Line2 = &a.Line2
	}
	return p
}
