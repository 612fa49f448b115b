package developer_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer"
)

// stubShops makes test shops without seeding them; fail makes the next
// one fail.
type stubShops struct {
	mu   sync.Mutex
	n    int
	fail bool
	got  []developer.ShopRequest
}

func (s *stubShops) MakeTestShop(_ context.Context, in developer.ShopRequest) (developer.MadeShop, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail {
		s.fail = false
		return developer.MadeShop{}, errors.New("seller store down")
	}
	s.n++
	s.got = append(s.got, in)
	return developer.MadeShop{SellerID: ids.New("slr"), Username: in.Username, Password: "pw", OTP: "123456"}, nil
}

func newShopsFixture(t *testing.T, d *db.DB, limits developer.Limits) (*fixture, *stubShops) {
	t.Helper()
	f := newAppsFixture(t, d)
	maker := &stubShops{}
	var err error
	f.svc, err = developer.NewService(developer.Config{Store: developer.NewEntStore(d), Clock: f.clock, Business: f.clock,
		Mail: f.mail, ConsoleURL: "https://console.example/console/", Limits: limits, ShopMaker: maker,
		PasswordCost: auth.TestPasswordCost})
	if err != nil {
		t.Fatal(err)
	}
	return f, maker
}

// Test shops per account: five by default, the configured number
// otherwise; a shop that could not be made does not count.
func TestTestShopLimit(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f, maker := newShopsFixture(t, d, developer.Limits{})
		f.signUp(t, "ana@example.com", developer.TypeIndividual)
		_, err := f.svc.CreateTestShop(ctx, caller, f.signIn(t, "ana@example.com"), "Ana's shop")
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_EMAIL_NOT_VERIFIED)
		f.verify(t, "ana@example.com")
		a := f.signIn(t, "ana@example.com")

		_, err = f.svc.CreateTestShop(ctx, caller, a, "  ")
		wantCode(t, err, apierr.ValidationError)
		maker.fail = true
		if _, err := f.svc.CreateTestShop(ctx, caller, a, "Broken"); err == nil {
			t.Fatal("a shop that could not be made was answered")
		}
		for i := 1; i <= developer.DefaultTestShops; i++ {
			f.clock.Advance(time.Second)
			made, err := f.svc.CreateTestShop(ctx, caller, a, fmt.Sprintf("Shop %d", i))
			if err != nil {
				t.Fatal(err)
			}
			if made.Shop.SellerID == "" || made.Password == "" || made.OTP == "" || made.Shop.Username == "" {
				t.Fatalf("made %+v", made)
			}
		}
		_, err = f.svc.CreateTestShop(ctx, caller, a, "Sixth")
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_TEST_SHOP_LIMIT_REACHED)
		if got := apierr.HTTPStatus(errorsv1.ErrorCode_ERROR_CODE_TEST_SHOP_LIMIT_REACHED); got != 422 {
			t.Fatalf("TEST_SHOP_LIMIT_REACHED answers %d, want 422", got)
		}
		shops, err := f.svc.TestShops(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(shops) != developer.DefaultTestShops || shops[0].ShopName != "Shop 1" {
			t.Fatalf("listed %+v", shops)
		}
		if maker.got[0].OwnerName != "Ana Cruz" || maker.got[0].Destination != "ana@example.com" ||
			maker.got[0].Username == maker.got[1].Username {
			t.Fatalf("asked for %+v", maker.got[:2])
		}

		// A shop being made counts; one whose making was abandoned (no
		// seller ten minutes on) does not.
		g, _ := newShopsFixture(t, d, developer.Limits{TestShops: 1})
		up := g.signUp(t, "bo@example.com", developer.TypeBusiness)
		g.verify(t, "bo@example.com")
		b := g.signIn(t, "bo@example.com")
		if err := developer.NewEntStore(d).ReserveTestShop(ctx, developer.TestShopRecord{ID: ids.New("dtsh"),
			AccountID: up.AccountID, ShopName: "Being made", CreatedAt: g.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		_, err = g.svc.CreateTestShop(ctx, caller, b, "Only")
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_TEST_SHOP_LIMIT_REACHED)
		g.clock.Advance(11 * time.Minute)
		b = g.signIn(t, "bo@example.com")
		if _, err := g.svc.CreateTestShop(ctx, caller, b, "Only"); err != nil {
			t.Fatal(err)
		}
		_, err = g.svc.CreateTestShop(ctx, caller, b, "Second")
		wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_TEST_SHOP_LIMIT_REACHED)
	})
}

// Two owners demoting each other at once leave the account one owner.
func TestTwoOwnersCannotBothStepDown(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newAppsFixture(t, d)
		f.signUp(t, "ana@example.com", developer.TypeIndividual)
		f.verify(t, "ana@example.com")
		ana := f.signIn(t, "ana@example.com")
		if _, err := f.svc.Invite(ctx, caller, ana, "bob@example.com", developer.RoleOwner); err != nil {
			t.Fatal(err)
		}
		invitation := f.mail.linkToken(t, "bob@example.com", "invitations/accept")
		f.signUp(t, "bob@example.com", developer.TypeIndividual)
		f.verify(t, "bob@example.com")
		bob, err := f.svc.AcceptInvitation(ctx, caller, f.signIn(t, "bob@example.com"), invitation)
		if err != nil {
			t.Fatal(err)
		}
		if bob.Member.AccountID != ana.Member.AccountID || bob.Member.Role != developer.RoleOwner {
			t.Fatalf("joined as %+v", bob.Member)
		}
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, step := range []struct {
			by    developer.Actor
			other string
		}{{ana, bob.Member.ID}, {bob, ana.Member.ID}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.svc.UpdateRole(ctx, caller, step.by, step.other, developer.RoleAdmin)
			}()
		}
		wg.Wait()
		won, refused := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case apierr.CodeOf(err) == apierr.Conflict:
				refused++
			default:
				t.Fatal(err)
			}
		}
		if won != 1 || refused != 1 {
			t.Fatalf("%d demoted, %d refused: want one of each", won, refused)
		}
		ms, err := f.svc.Members(ctx, ana)
		if err != nil {
			t.Fatal(err)
		}
		owners := 0
		for _, m := range ms {
			if m.Role == developer.RoleOwner {
				owners++
			}
		}
		if owners != 1 {
			t.Fatalf("%d owners left", owners)
		}
	})
}
