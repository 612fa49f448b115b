// Package sandbox serves the tools only the sandbox environment offers: the
// test shop's movable business clock and test orders driven through their
// life. Each acts for the calling test shop; changes go through the same
// domain services, state machine and events as production paths.
package sandbox

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	sandboxv1 "github.com/mallplatform/partnerapi/gen/mp/sandbox/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/faults"
	"github.com/mallplatform/partnerapi/services/sandbox/ordergen"
	"github.com/mallplatform/partnerapi/services/sandbox/shopclock"
)

// Mover is a business clock a test shop can move forward (shopclock.Clock).
type Mover interface {
	clock.Business
	Advance(ctx context.Context, sellerID string, by time.Duration) (time.Time, error)
}

// Config is what the server is built from.
type Config struct {
	// Business is the deployment's business clock; it moves only when it
	// is a Mover.
	Business clock.Business
	Orders   *orders.Service
	// Catalog reads the seller's products for test order lines.
	Catalog catalog.Store
	// Products takes the review tool's steps.
	Products *catalog.Service
	// Parcels is the shipping domain's courier steps (shipping.Tracker):
	// the tracking route appends through it, and a booked order's moves to
	// SHIPPED and DELIVERED go through its parcel. Nil: the tracking route
	// answers SERVICE_UNAVAILABLE and every move is the order's alone.
	Parcels Parcels
	// Faults is the shops' queues of injected failures (nil: the faults
	// route answers SERVICE_UNAVAILABLE).
	Faults *faults.Store
}

// Server implements SandboxService.
type Server struct {
	sandboxv1.UnimplementedSandboxServiceServer
	cfg   Config
	rngMu sync.Mutex
	rng   *rand.Rand
}

// NewServer returns the sandbox server.
func NewServer(cfg Config) *Server {
	return &Server{cfg: cfg, rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// Register registers the service.
func (s *Server) Register(r grpc.ServiceRegistrar) { sandboxv1.RegisterSandboxServiceServer(r, s) }

func (s *Server) clockAt(t time.Time) *sandboxv1.ClockResponse {
	return &sandboxv1.ClockResponse{Data: &sandboxv1.Clock{Now: timestamppb.New(t), Timezone: clock.Manila.String()}}
}

// GetClock reports the test shop's business time.
func (s *Server) GetClock(ctx context.Context, _ *sandboxv1.GetClockRequest) (*sandboxv1.ClockResponse, error) {
	if _, err := principal.RequireSeller(ctx); err != nil {
		return nil, err
	}
	return s.clockAt(s.cfg.Business.Business(ctx)), nil
}

// AdvanceClock moves the test shop's business clock forward.
func (s *Server) AdvanceClock(ctx context.Context, req *sandboxv1.AdvanceClockRequest) (*sandboxv1.ClockResponse, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	m, ok := s.cfg.Business.(Mover)
	if !ok {
		return nil, apierr.New(apierr.NotImplemented, "this deployment's business clock does not move")
	}
	now, err := m.Advance(ctx, seller, time.Duration(req.GetAdvance().GetAdvanceSeconds())*time.Second)
	if errors.Is(err, shopclock.ErrNotTestShop) {
		return nil, apierr.New(apierr.SandboxOnly, "only a test shop's clock moves")
	}
	if err != nil {
		return nil, err
	}
	return s.clockAt(now), nil
}

// CreateTestOrder creates a test order for the calling seller.
func (s *Server) CreateTestOrder(ctx context.Context, req *sandboxv1.CreateTestOrderRequest) (*ordersv1.OrderResponse, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	in := req.GetOrder() // nil when the body was empty
	lines, err := s.lines(ctx, seller, in.GetItems())
	if err != nil {
		return nil, err
	}
	status := orders.StatusReadyToShip
	if in != nil && in.Status != nil {
		status = orders.StatusFromProto(in.GetStatus())
	}
	shipBy, err := wirejson.Instant("shipByDate", in.GetShipByDate())
	if err != nil {
		return nil, err
	}
	s.rngMu.Lock()
	o, err := ordergen.Fresh(seller, status, lines, shipBy, s.cfg.Business.Business(ctx), s.rng)
	s.rngMu.Unlock()
	if err != nil {
		return nil, err
	}
	v, err := s.cfg.Orders.Create(ctx, o)
	if err != nil {
		return nil, err
	}
	return &ordersv1.OrderResponse{Data: orders.OrderToProto(v)}, nil
}

// TransitionTestOrder moves a test order one step of its life.
func (s *Server) TransitionTestOrder(ctx context.Context, req *sandboxv1.TransitionTestOrderRequest) (*ordersv1.OrderResponse, error) {
	s.rngMu.Lock()
	company, tracking := ordergen.Parcel(s.rng)
	s.rngMu.Unlock()
	to := orders.StatusFromProto(req.GetTransition().GetTo())
	if handled, v, err := s.followParcel(ctx, req.GetId(), to); handled || err != nil {
		if err != nil {
			return nil, err
		}
		return &ordersv1.OrderResponse{Data: orders.OrderToProto(v)}, nil
	}
	v, err := s.cfg.Orders.Transition(ctx, req.GetId(), to,
		orders.Shipment{TrackingNumber: tracking, TrackingCompany: company})
	if err != nil {
		return nil, err
	}
	return &ordersv1.OrderResponse{Data: orders.OrderToProto(v)}, nil
}

// lines resolves the requested items against the seller's catalog; without
// items, one random variant in stock of the seller's newest products, or a
// generated line when the seller has none.
func (s *Server) lines(ctx context.Context, seller string, items []*sandboxv1.TestOrderItem) ([]ordergen.Line, error) {
	if len(items) == 0 {
		w := pagination.Window[pagination.TimeKey]{Page: 1, Limit: 20}
		products, _, err := s.cfg.Catalog.ListProducts(ctx, seller, catalog.ProductFilter{}, w)
		if err != nil {
			return nil, err
		}
		s.rngMu.Lock()
		defer s.rngMu.Unlock()
		if len(products) == 0 {
			return []ordergen.Line{{Product: ordergen.Generated(s.cfg.Business.Business(ctx), s.rng), Quantity: 1}}, nil
		}
		// A variant that can be sold: one in stock, or whose stock is not
		// counted (an order takes its quantity off stock, and one beyond
		// the stock is refused).
		type pick struct {
			p *catalog.Product
			v *catalog.Variant
		}
		var sellable []pick
		for _, p := range products {
			if len(p.Variants) == 0 {
				sellable = append(sellable, pick{p, nil})
			}
			for j := range p.Variants {
				if v := &p.Variants[j]; v.Stock == nil || *v.Stock > 0 {
					sellable = append(sellable, pick{p, v})
				}
			}
		}
		if len(sellable) == 0 {
			return []ordergen.Line{{Product: ordergen.Generated(s.cfg.Business.Business(ctx), s.rng), Quantity: 1}}, nil
		}
		c := sellable[s.rng.IntN(len(sellable))]
		return []ordergen.Line{{Product: lineProduct(c.p, c.v), Quantity: 1}}, nil
	}
	out := make([]ordergen.Line, len(items))
	for i, it := range items {
		p, err := s.cfg.Catalog.GetProduct(ctx, seller, it.GetProductId())
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, apierr.Newf(apierr.ValidationError, "items[%d].productId: the seller has no product %s", i, it.GetProductId())
		}
		if err != nil {
			return nil, err
		}
		var v *catalog.Variant
		if len(p.Variants) > 0 {
			v = &p.Variants[0]
		}
		if it.VariantId != nil {
			v = nil
			for j := range p.Variants {
				if p.Variants[j].ID == it.GetVariantId() {
					v = &p.Variants[j]
				}
			}
			if v == nil {
				return nil, apierr.Newf(apierr.ValidationError, "items[%d].variantId: the product has no variant %s", i, it.GetVariantId())
			}
		}
		out[i] = ordergen.Line{Product: lineProduct(p, v), Quantity: it.GetQuantity()}
	}
	return out, nil
}

func lineProduct(p *catalog.Product, v *catalog.Variant) ordergen.Product {
	lp := ordergen.Product{ProductID: p.ID, Title: p.Name}
	if len(p.Images) > 0 {
		lp.Thumbnail = p.Images[0]
	}
	if v != nil {
		lp.VariantID = v.ID
		if v.Title != "" {
			lp.Title += " - " + v.Title
		}
		if v.SKU != nil {
			lp.SKU = *v.SKU
		}
		if v.Price != nil {
			lp.UnitPrice = *v.Price
		}
	}
	return lp
}
