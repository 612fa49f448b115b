// Package sellers is the shops' own profile: the shop name and the pickup
// addresses its parcels leave from. Partners read it at GET
// /open/v1/sellers/me; other domains (shipping quotes from the default
// pickup address) call the Service's Go methods in process.
package sellers

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// Config configures the Service.
type Config struct {
	Store Store
	// Business stamps new addresses (default clock.System).
	Business clock.Business
	// Clock is the wall clock the default-address cache expires by
	// (default clock.System).
	Clock clock.Clock
	// DefaultAddressTTL is how long the default pickup address is served
	// from memory (0: DefaultAddressTTL; negative: never cached).
	DefaultAddressTTL time.Duration
}

// Service reads and adds shops' pickup addresses.
type Service struct {
	store    Store
	business clock.Business
	clock    clock.Clock
	defaults *defaultAddresses
}

// NewService returns the service over cfg.Store.
func NewService(cfg Config) *Service {
	if cfg.Business == nil {
		cfg.Business = clock.System{}
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.DefaultAddressTTL == 0 {
		cfg.DefaultAddressTTL = DefaultAddressTTL
	}
	return &Service{store: cfg.Store, business: cfg.Business, clock: cfg.Clock,
		defaults: newDefaultAddresses(cfg.DefaultAddressTTL)}
}

// Me is the calling seller's shop and its pickup addresses.
func (s *Service) Me(ctx context.Context) (Shop, []PickupAddress, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return Shop{}, nil, err
	}
	shop, err := s.store.Shop(ctx, sellerID)
	if errors.Is(err, ErrNotFound) {
		// A verified token of a seller that no longer exists.
		return Shop{}, nil, apierr.New(apierr.NotFound, "seller not found")
	}
	if err != nil {
		return Shop{}, nil, err
	}
	addrs, err := s.store.PickupAddresses(ctx, sellerID)
	if err != nil {
		return Shop{}, nil, err
	}
	return shop, addrs, nil
}

// PickupAddresses returns the seller's addresses, the default first: for
// other domains, which name the seller themselves.
func (s *Service) PickupAddresses(ctx context.Context, sellerID string) ([]PickupAddress, error) {
	return s.store.PickupAddresses(ctx, sellerID)
}

// DefaultPickupAddress returns the seller's default address, or
// ErrNotFound when the seller has none (a shop without addresses): the
// caller decides what a missing origin means. It may be up to
// Config.DefaultAddressTTL old when another process added the addresses.
func (s *Service) DefaultPickupAddress(ctx context.Context, sellerID string) (PickupAddress, error) {
	return s.defaults.get(ctx, sellerID, s.clock.Now(), s.store.DefaultPickupAddress)
}

// PickupAddress returns one of the seller's addresses, or ErrNotFound
// (another seller's address included).
func (s *Service) PickupAddress(ctx context.Context, sellerID, addressID string) (PickupAddress, error) {
	if !ValidAddressID(addressID) {
		return PickupAddress{}, ErrNotFound
	}
	return s.store.PickupAddress(ctx, sellerID, addressID)
}
