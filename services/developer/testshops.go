package developer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/auth"
)

// DefaultTestShops is an account's most test shops by default
// (MP_CONSOLE_TEST_SHOPS).
const DefaultTestShops = 5

// shopMaking bounds how long making a test shop takes: a reservation older
// than this without its seller was abandoned (its process stopped) and no
// longer counts against the limit.
const shopMaking = 10 * time.Minute

// ShopRequest is a test shop to make.
type ShopRequest struct {
	// OwnerName is the seller's name; ShopName the shop's.
	OwnerName, ShopName string
	// Username is the consent pages' login; Destination where its codes
	// would go (a test shop signs in with its fixed code).
	Username, Destination string
}

// MadeShop is a made test shop with its login, the password and fixed code
// in the clear, to show once.
type MadeShop struct {
	SellerID string
	Username string
	Password string
	OTP      string
}

// ShopMaker makes a sandbox test shop as the sandbox seed makes its own:
// the seller, its login with a fixed one-time code, two pickup addresses,
// products and orders.
type ShopMaker interface {
	MakeTestShop(ctx context.Context, in ShopRequest) (MadeShop, error)
}

// ShopMakerFunc is a function as a ShopMaker.
type ShopMakerFunc func(ctx context.Context, in ShopRequest) (MadeShop, error)

// MakeTestShop implements ShopMaker.
func (f ShopMakerFunc) MakeTestShop(ctx context.Context, in ShopRequest) (MadeShop, error) {
	return f(ctx, in)
}

// Grants is the auth domain's step that records a seller's grant to an app
// and issues its tokens (what the consent flow ends with).
type Grants interface {
	AuthorizeSeller(ctx context.Context, appID, sellerID string, scopes []string, accessTTL, refreshTTL time.Duration) (*auth.IssuedTokens, error)
}

var (
	errNoShopMaker = errors.New("developer: the service was built without a test shop maker")
	errNoGrants    = errors.New("developer: the service was built without the auth domain's grant step")
)

// CreatedTestShop is a new test shop with its login's secrets, shown once.
type CreatedTestShop struct {
	Shop     TestShopRecord
	Password string
	OTP      string
}

// TestShops lists the actor's account's test shops.
func (s *Service) TestShops(ctx context.Context, a Actor) ([]TestShopRecord, error) {
	if err := authorize(a, actRead); err != nil {
		return nil, err
	}
	return s.shops.TestShops(ctx, a.Member.AccountID)
}

// CreateTestShop makes a test shop for the actor's account within its
// limit. The shop's record is reserved under the account's lock first, so
// two creations count one after the other; the shop itself is made outside
// that transaction (the seller's steps commit on their own), and the
// reservation is dropped when making it fails.
func (s *Service) CreateTestShop(ctx context.Context, c Caller, a Actor, shopName string) (CreatedTestShop, error) {
	if s.maker == nil || s.appStore == nil {
		return CreatedTestShop{}, errNoShopMaker
	}
	if err := requireVerified(a); err != nil {
		return CreatedTestShop{}, err
	}
	if err := authorize(a, actSandbox); err != nil {
		return CreatedTestShop{}, err
	}
	shopName = strings.TrimSpace(shopName)
	if shopName == "" || utf8.RuneCountInString(shopName) > 100 {
		return CreatedTestShop{}, validation("shopName must be 1 to 100 characters")
	}
	now := s.business.Business(ctx)
	rec := TestShopRecord{ID: ids.NewAt("dtsh", now), AccountID: a.Member.AccountID, ShopName: shopName, CreatedAt: now}
	err := s.store.InTx(ctx, func(ctx context.Context) error {
		if err := s.appStore.LockAccount(ctx, a.Member.AccountID); err != nil {
			return err
		}
		n, err := s.shops.CountTestShops(ctx, a.Member.AccountID, now.Add(-shopMaking))
		if err != nil {
			return err
		}
		if n >= s.limits.TestShops {
			return errTestShopLimit
		}
		return s.shops.ReserveTestShop(ctx, rec)
	})
	if err != nil {
		return CreatedTestShop{}, err
	}
	made, err := s.maker.MakeTestShop(ctx, ShopRequest{OwnerName: a.User.Name, ShopName: shopName,
		Username: testShopUsername(), Destination: a.User.Email})
	if err != nil {
		if derr := s.shops.DropTestShop(context.WithoutCancel(ctx), rec.ID); derr != nil {
			s.log.Warn("test shop reservation not dropped", zap.String("id", rec.ID), zap.Error(derr))
		}
		return CreatedTestShop{}, err
	}
	rec.SellerID, rec.Username = made.SellerID, made.Username
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		if err := s.shops.CompleteTestShop(ctx, rec.ID, made.SellerID, made.Username); err != nil {
			return err
		}
		return s.audit(ctx, c, a.Member.AccountID, a.User.ID, "test_shop.created", made.SellerID, now)
	})
	if err != nil {
		return CreatedTestShop{}, err
	}
	return CreatedTestShop{Shop: rec, Password: made.Password, OTP: made.OTP}, nil
}

// testShopUsername is a new test shop's login: random, so that no shop's
// name decides another's.
func testShopUsername() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "shop-" + hex.EncodeToString(b[:])
}

// ShopTokens are a test shop's grant to an app, shown once.
type ShopTokens struct {
	SellerID string
	AppID    string
	Scopes   []string
	Tokens   auth.IssuedTokens
}

// AuthorizeTestShop grants one of the account's sandbox apps access to one
// of its test shops, with the app's scopes, through the auth domain's
// grant step; the tokens live as the sandbox seed's do.
func (s *Service) AuthorizeTestShop(ctx context.Context, c Caller, a Actor, sellerID, appID string) (ShopTokens, error) {
	if s.grants == nil || s.appStore == nil {
		return ShopTokens{}, errNoGrants
	}
	if err := requireVerified(a); err != nil {
		return ShopTokens{}, err
	}
	if err := authorize(a, actSandbox); err != nil {
		return ShopTokens{}, err
	}
	if _, err := s.shops.TestShop(ctx, a.Member.AccountID, sellerID); errors.Is(err, ErrNotFound) {
		return ShopTokens{}, errTestShopNotFound
	} else if err != nil {
		return ShopTokens{}, err
	}
	app, err := s.App(ctx, a, appID)
	if err != nil {
		return ShopTokens{}, err
	}
	switch {
	case app.Environment != auth.EnvSandbox:
		return ShopTokens{}, errAppNotSandbox
	case !app.Active:
		return ShopTokens{}, errAppInactive
	}
	t, err := s.grants.AuthorizeSeller(ctx, app.ID, sellerID, app.Scopes, auth.SandboxAccessTokenTTL, auth.SandboxRefreshTokenTTL)
	if err != nil {
		return ShopTokens{}, err
	}
	if err := s.audit(ctx, c, a.Member.AccountID, a.User.ID, "test_shop.authorized:"+app.ID, sellerID,
		s.business.Business(ctx)); err != nil {
		return ShopTokens{}, err
	}
	return ShopTokens{SellerID: sellerID, AppID: app.ID, Scopes: append([]string{}, app.Scopes...), Tokens: *t}, nil
}
