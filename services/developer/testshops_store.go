package developer

import (
	"context"
	"time"
)

// TestShopRecord is the console's record of a test shop it made for an
// account. SellerID is empty while the shop is being made.
type TestShopRecord struct {
	ID        string
	AccountID string
	ShopName  string
	SellerID  string
	Username  string
	CreatedAt time.Time
}

// TestShopStore keeps which account made which test shop. Writes join the
// transaction ctx carries, if any.
type TestShopStore interface {
	// CountTestShops counts the account's made test shops and those
	// reserved since reservedSince (older reservations were abandoned).
	CountTestShops(ctx context.Context, accountID string, reservedSince time.Time) (int, error)
	// ReserveTestShop inserts a record without a seller.
	ReserveTestShop(ctx context.Context, r TestShopRecord) error
	// CompleteTestShop gives a reserved record its seller and username.
	CompleteTestShop(ctx context.Context, id, sellerID, username string) error
	// DropTestShop deletes a reserved record whose shop could not be made.
	DropTestShop(ctx context.Context, id string) error
	// TestShops lists the account's made test shops, oldest first.
	TestShops(ctx context.Context, accountID string) ([]TestShopRecord, error)
	// TestShop reads one of the account's made test shops by its seller id
	// (ErrNotFound for another account's).
	TestShop(ctx context.Context, accountID, sellerID string) (TestShopRecord, error)
}
