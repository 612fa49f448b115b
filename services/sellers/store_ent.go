package sellers

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/pickupaddress"
	"github.com/mallplatform/partnerapi/ent/predicate"
	"github.com/mallplatform/partnerapi/ent/seller"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent} }

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// Shop implements Store.
func (s *EntStore) Shop(ctx context.Context, sellerID string) (Shop, error) {
	row, err := s.db(ctx).Seller.Query().Where(seller.ID(sellerID)).
		Select(seller.FieldID, seller.FieldShopName).Only(ctx)
	if ent.IsNotFound(err) {
		return Shop{}, ErrNotFound
	}
	if err != nil {
		return Shop{}, fmt.Errorf("sellers: shop: %w", err)
	}
	return Shop{SellerID: row.ID, ShopName: row.ShopName}, nil
}

// PickupAddresses implements Store.
func (s *EntStore) PickupAddresses(ctx context.Context, sellerID string) ([]PickupAddress, error) {
	rows, err := s.db(ctx).PickupAddress.Query().Where(pickupaddress.SellerID(sellerID)).
		Order(pickupaddress.ByIsDefault(sql.OrderDesc()), pickupaddress.ByCreatedAt(), pickupaddress.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("sellers: pickup addresses: %w", err)
	}
	out := make([]PickupAddress, len(rows))
	for i, r := range rows {
		out[i] = fromEnt(r)
	}
	return out, nil
}

// DefaultPickupAddress implements Store.
func (s *EntStore) DefaultPickupAddress(ctx context.Context, sellerID string) (PickupAddress, error) {
	return s.one(ctx, pickupaddress.SellerID(sellerID), pickupaddress.IsDefault(true))
}

// PickupAddress implements Store.
func (s *EntStore) PickupAddress(ctx context.Context, sellerID, addressID string) (PickupAddress, error) {
	return s.one(ctx, pickupaddress.SellerID(sellerID), pickupaddress.ID(addressID))
}

func (s *EntStore) one(ctx context.Context, where ...predicate.PickupAddress) (PickupAddress, error) {
	row, err := s.db(ctx).PickupAddress.Query().Where(where...).Only(ctx)
	if ent.IsNotFound(err) {
		return PickupAddress{}, ErrNotFound
	}
	if err != nil {
		return PickupAddress{}, fmt.Errorf("sellers: pickup address: %w", err)
	}
	return fromEnt(row), nil
}

// AddPickupAddresses implements Store. A batch with a default is checked
// against the seller's current one first; the partial unique index refuses
// the second default of two writers racing, reported the same way.
func (s *EntStore) AddPickupAddresses(ctx context.Context, sellerID string, as []PickupAddress) error {
	defaults := 0
	for _, a := range as {
		if a.IsDefault {
			defaults++
		}
	}
	if defaults > 1 {
		return ErrDefaultTaken
	}
	return db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		if defaults == 1 {
			taken, err := tx.PickupAddress.Query().Where(pickupaddress.SellerID(sellerID), pickupaddress.IsDefault(true)).Exist(ctx)
			if err != nil {
				return fmt.Errorf("sellers: default pickup address: %w", err)
			}
			if taken {
				return ErrDefaultTaken
			}
		}
		builders := make([]*ent.PickupAddressCreate, len(as))
		for i, a := range as {
			builders[i] = tx.PickupAddress.Create().
				SetID(a.ID).SetSellerID(sellerID).SetIsDefault(a.IsDefault).SetName(a.Name).
				SetLine1(a.Line1).SetLine2(a.Line2).SetCity(a.City).SetProvince(a.Province).SetRegion(a.Region).
				SetPostalCode(a.PostalCode).SetPhone(a.Phone).SetPsgcCode(a.PSGCCode).
				SetCreatedAt(a.CreatedAt).SetUpdatedAt(a.CreatedAt)
		}
		err := tx.PickupAddress.CreateBulk(builders...).Exec(ctx)
		if ent.IsConstraintError(err) && defaults == 1 {
			return ErrDefaultTaken
		}
		if err != nil {
			return fmt.Errorf("sellers: add pickup addresses: %w", err)
		}
		return nil
	})
}

func fromEnt(r *ent.PickupAddress) PickupAddress {
	return PickupAddress{
		ID: r.ID, SellerID: r.SellerID, IsDefault: r.IsDefault, Name: r.Name, Line1: r.Line1, Line2: r.Line2,
		City: r.City, Province: r.Province, Region: r.Region, PostalCode: r.PostalCode, Phone: r.Phone,
		PSGCCode: r.PsgcCode, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}
