package sellers

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is a seller, or a seller's address, that does not exist (for
// the seller asking: another seller's address is as missing as none).
var ErrNotFound = errors.New("sellers: not found")

// ErrDefaultTaken is an insert that would give a seller a second default
// pickup address.
var ErrDefaultTaken = errors.New("sellers: the seller already has a default pickup address")

// Shop is a seller as its partners see it.
type Shop struct {
	SellerID string
	ShopName string
}

// PickupAddress is one place a seller's parcels leave from. City, Province
// and Region are the names internal/psgc gives PSGCCode.
type PickupAddress struct {
	ID         string
	SellerID   string
	IsDefault  bool
	Name       string
	Line1      string
	Line2      string
	City       string
	Province   string
	Region     string
	PostalCode string
	Phone      string
	PSGCCode   string
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Store keeps shops' profiles and pickup addresses. Every method takes the
// seller: no query runs without it.
type Store interface {
	// Shop returns the seller's profile (ErrNotFound when there is none).
	Shop(ctx context.Context, sellerID string) (Shop, error)
	// PickupAddresses returns the seller's addresses, the default first,
	// then oldest first.
	PickupAddresses(ctx context.Context, sellerID string) ([]PickupAddress, error)
	// DefaultPickupAddress returns the seller's default address
	// (ErrNotFound when the seller has none).
	DefaultPickupAddress(ctx context.Context, sellerID string) (PickupAddress, error)
	// PickupAddress returns one of the seller's addresses (ErrNotFound
	// for another seller's).
	PickupAddress(ctx context.Context, sellerID, addressID string) (PickupAddress, error)
	// AddPickupAddresses inserts addresses of one seller in one
	// transaction (the one ctx carries, if any); ErrDefaultTaken when the
	// seller would end up with two defaults.
	AddPickupAddresses(ctx context.Context, sellerID string, as []PickupAddress) error
}
