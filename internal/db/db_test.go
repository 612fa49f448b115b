package db_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/app"
	"github.com/mallplatform/partnerapi/ent/categoryattribute"
	"github.com/mallplatform/partnerapi/ent/fulfillment"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/ent/productvariant"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
	"github.com/mallplatform/partnerapi/internal/ids"
)

func ptr[T any](v T) *T { return &v }

// jsonEqual compares raw JSON by meaning: PostgreSQL's jsonb re-renders
// values (spacing, key order), so bytes do not survive a round trip.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return cmp.Equal(x, y)
}

var entOpts = cmp.Options{
	cmpopts.IgnoreUnexported(
		ent.DeveloperAccount{}, ent.App{}, ent.Seller{}, ent.SellerAuthorization{},
		ent.Category{}, ent.CategoryAttribute{}, ent.Product{}, ent.ProductVariant{},
		ent.Order{}, ent.OrderItem{}, ent.Fulfillment{},
	),
	cmpopts.IgnoreFields(ent.DeveloperAccount{}, "Edges"),
	cmpopts.IgnoreFields(ent.App{}, "Edges"),
	cmpopts.IgnoreFields(ent.Seller{}, "Edges"),
	cmpopts.IgnoreFields(ent.SellerAuthorization{}, "Edges"),
	cmpopts.IgnoreFields(ent.Category{}, "Edges"),
	cmpopts.IgnoreFields(ent.CategoryAttribute{}, "Edges"),
	cmpopts.IgnoreFields(ent.Product{}, "Edges"),
	cmpopts.IgnoreFields(ent.ProductVariant{}, "Edges"),
	cmpopts.IgnoreFields(ent.Order{}, "Edges"),
	cmpopts.IgnoreFields(ent.OrderItem{}, "Edges"),
	cmpopts.IgnoreFields(ent.Fulfillment{}, "Edges"),
	cmp.Comparer(jsonEqual),
}

// fixture is one row of every entity, linked the way the services link them.
type fixture struct {
	account   *ent.DeveloperAccount
	app       *ent.App
	seller    *ent.Seller
	auth      *ent.SellerAuthorization
	root      *ent.Category
	leaf      *ent.Category
	attr      *ent.CategoryAttribute
	product   *ent.Product
	variant   *ent.ProductVariant
	bare      *ent.ProductVariant
	order     *ent.Order
	item      *ent.OrderItem
	delivered *ent.Fulfillment
}

func seed(ctx context.Context, t *testing.T, c *ent.Client) fixture {
	t.Helper()
	// Explicit non-UTC input: storage must hand back the same instant in UTC.
	at := time.Date(2026, 3, 1, 9, 30, 15, 123_000_000, time.FixedZone("PHT", 8*3600))
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var f fixture
	var err error
	f.account, err = c.DeveloperAccount.Create().
		SetID(ids.New("acct")).SetName("Acme Integrations").SetEmail("dev@acme.example").
		SetRateLimitPerMinute(3600).SetCreatedAt(at).Save(ctx)
	must(err)
	f.app, err = c.App.Create().
		SetID(ids.New("app")).SetClientID("test_" + ids.Token(10)).SetName("Acme Sync").
		SetAccountID(f.account.ID).SetEnvironment(app.EnvironmentSandbox).
		SetScopes([]string{"products:read", "orders:read"}).
		SetSecretCiphertext([]byte{0x01, 0x02, 0xff}).
		SetPreviousSecretCiphertext([]byte{0x09}).SetPreviousSecretExpiresAt(at.Add(24 * time.Hour)).
		SetCreatedAt(at).SetUpdatedAt(at).Save(ctx)
	must(err)
	f.seller, err = c.Seller.Create().
		SetID(ids.New("slr")).SetName("Juan").SetShopName("Juan's Shop").SetTestShop(true).
		SetCreatedAt(at).Save(ctx)
	must(err)
	f.auth, err = c.SellerAuthorization.Create().
		SetID(ids.New("sauth")).SetAppID(f.app.ID).SetSellerID(f.seller.ID).
		SetScopes([]string{"orders:read"}).
		SetAccessTokenHash(fmt.Sprintf("%064x", 1)).SetAccessExpiresAt(at.Add(time.Hour)).
		SetRefreshTokenHash(fmt.Sprintf("%064x", 2)).SetRefreshExpiresAt(at.Add(30 * 24 * time.Hour)).
		SetCreatedAt(at).Save(ctx)
	must(err)
	f.root, err = c.Category.Create().
		SetID("100000").SetName("Fashion").SetPosition(1).SetCreatedAt(at).Save(ctx)
	must(err)
	f.leaf, err = c.Category.Create().
		SetID("100017").SetName("T-Shirts").SetHandle("t-shirts").SetDescription("Short sleeves").
		SetParentID(f.root.ID).SetPosition(2).SetCreatedAt(at).Save(ctx)
	must(err)
	f.attr, err = c.CategoryAttribute.Create().
		SetID("attr_size").SetCategoryID(f.leaf.ID).SetName("Size").
		SetInputType(categoryattribute.InputTypeSelect).SetMandatory(true).
		SetAllowedValues([]string{"S", "M", "L"}).SetUnit("cm").SetPosition(0).Save(ctx)
	must(err)
	f.product, err = c.Product.Create().
		SetID(ids.New("prod")).SetShortID("P" + ids.Token(5)).SetSellerID(f.seller.ID).
		SetName("Plain cotton tee").SetDescription("Soft.").
		SetCategoryID(f.leaf.ID).SetCategoryName(f.leaf.Name).
		SetImages([]string{"https://img.example/1.jpg", "https://img.example/2.jpg"}).
		SetWeight(180.5).SetLength(30).SetWidth(20).SetHeight(2.5).
		SetOptionsOrder([]dbtypes.OptionGroup{{Title: "Colour", Values: []string{"Red", "Blue"}}}).
		SetAttributeValues([]dbtypes.AttributeValue{
			{AttributeID: "attr_size", Value: json.RawMessage(`"M"`)},
			{AttributeID: "attr_tags", Value: json.RawMessage(`{"b":[1,2],"a":true}`)},
		}).
		SetCreatedAt(at).SetUpdatedAt(at).Save(ctx)
	must(err)
	f.variant, err = c.ProductVariant.Create().
		SetID(ids.New("var")).SetProductID(f.product.ID).SetPosition(0).SetTitle("Red").
		SetSku("TEE-RED").SetPrice(19_900).SetStockQuantity(12).
		SetOptions([]dbtypes.VariantOption{{Name: ptr("Colour"), Value: ptr("Red")}, {Name: nil, Value: ptr("x")}}).
		SetWeight(180.5).SetLength(30).SetWidth(20).SetHeight(2.5).
		SetImages([]string{"https://img.example/1.jpg"}).Save(ctx)
	must(err)
	// A variant that leaves every nullable field unset.
	f.bare, err = c.ProductVariant.Create().
		SetID(ids.New("var")).SetProductID(f.product.ID).SetPosition(1).Save(ctx)
	must(err)
	f.order, err = c.Order.Create().
		SetID(ids.New("ord")).SetSellerID(f.seller.ID).SetCustomerID("cus_1").
		SetBuyerEmail("buyer@example.ph").SetStatus(order.StatusReadyToShip).
		SetSubtotal(39_800).SetTotal(43_800).SetTax(0).SetShipping(4_000).SetDiscount(0).
		SetPaymentStatus("paid").SetFulfillmentStatus("unfulfilled").
		SetShippingAddress(dbtypes.Address{Name: "Maria", Line1: "1 Rizal St", Line2: ptr("Unit 2"),
			City: "Makati", Province: "Metro Manila", PostalCode: "1200", Country: "PH", Phone: "+639170000000"}).
		SetBillingAddress(dbtypes.Address{Name: "Maria", Line1: "1 Rizal St",
			City: "Makati", Province: "Metro Manila", PostalCode: "1200", Country: "PH", Phone: "+639170000000"}).
		SetShipByDate(at.Add(48 * time.Hour)).SetShippingChannel("JNT").
		SetBookingStatus(order.BookingStatusPendingArrange).
		SetCreatedAt(at).SetUpdatedAt(at).Save(ctx)
	must(err)
	f.item, err = c.OrderItem.Create().
		SetID(ids.New("item")).SetOrderID(f.order.ID).SetPosition(0).
		SetProductID(f.product.ID).SetVariantID(f.variant.ID).SetTitle("Plain cotton tee - Red").
		SetSku("TEE-RED").SetQuantity(2).SetUnitPrice(19_900).SetTotalPrice(39_800).
		SetThumbnail("https://img.example/1.jpg").Save(ctx)
	must(err)
	f.delivered, err = c.Fulfillment.Create().
		SetID(ids.New("ful")).SetOrderID(f.order.ID).SetStatus(fulfillment.StatusShipped).
		SetTrackingNumber("JT123").SetTrackingCompany("J&T Express").
		SetItems([]dbtypes.FulfillmentItem{{ItemID: f.item.ID, Quantity: 2}}).
		SetCreatedAt(at).SetUpdatedAt(at).Save(ctx)
	must(err)
	return f
}

func TestRoundTrip(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		c := d.Ent
		f := seed(ctx, t, c)

		check := func(name string, want, got any, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s: read back: %v", name, err)
			}
			if diff := cmp.Diff(want, got, entOpts); diff != "" {
				t.Errorf("%s: read back differs from what was written (-want +got):\n%s", name, diff)
			}
		}
		acct, err := c.DeveloperAccount.Get(ctx, f.account.ID)
		check("developer account", f.account, acct, err)
		a, err := c.App.Get(ctx, f.app.ID)
		check("app", f.app, a, err)
		s, err := c.Seller.Get(ctx, f.seller.ID)
		check("seller", f.seller, s, err)
		sa, err := c.SellerAuthorization.Get(ctx, f.auth.ID)
		check("seller authorization", f.auth, sa, err)
		root, err := c.Category.Get(ctx, f.root.ID)
		check("root category", f.root, root, err)
		leaf, err := c.Category.Get(ctx, f.leaf.ID)
		check("leaf category", f.leaf, leaf, err)
		attr, err := c.CategoryAttribute.Get(ctx, f.attr.ID)
		check("category attribute", f.attr, attr, err)
		p, err := c.Product.Get(ctx, f.product.ID)
		check("product", f.product, p, err)
		v, err := c.ProductVariant.Get(ctx, f.variant.ID)
		check("variant", f.variant, v, err)
		bare, err := c.ProductVariant.Get(ctx, f.bare.ID)
		check("bare variant", f.bare, bare, err)
		o, err := c.Order.Get(ctx, f.order.ID)
		check("order", f.order, o, err)
		it, err := c.OrderItem.Get(ctx, f.item.ID)
		check("order item", f.item, it, err)
		ful, err := c.Fulfillment.Get(ctx, f.delivered.ID)
		check("fulfillment", f.delivered, ful, err)

		// Nillable columns: nil stays nil, set stays set.
		if root.ParentID != nil || leaf.ParentID == nil || *leaf.ParentID != root.ID {
			t.Errorf("parent ids: root %v, leaf %v", root.ParentID, leaf.ParentID)
		}
		if bare.Sku != nil || bare.Price != nil || bare.StockQuantity != nil {
			t.Errorf("unset nullable variant fields came back set: sku=%v price=%v stock=%v", bare.Sku, bare.Price, bare.StockQuantity)
		}
		if bare.Options == nil || bare.Images == nil {
			t.Errorf("JSON defaults must read back as empty lists, got options=%v images=%v", bare.Options, bare.Images)
		}
		if o.BillingAddress.Line2 != nil || o.ShippingAddress.Line2 == nil {
			t.Errorf("address line2: billing %v shipping %v", o.BillingAddress.Line2, o.ShippingAddress.Line2)
		}
		if a.RateLimitPerMinute != nil || a.Active != true || len(a.RedirectUris) != 0 || a.RedirectUris == nil {
			t.Errorf("app defaults: rate=%v active=%v redirect=%#v", a.RateLimitPerMinute, a.Active, a.RedirectUris)
		}
		if o.Currency != "PHP" {
			t.Errorf("currency default = %q, want PHP", o.Currency)
		}
		for name, ts := range map[string]time.Time{"account": acct.CreatedAt, "order": o.CreatedAt, "ship_by": *o.ShipByDate} {
			if ts.Location() != time.UTC {
				t.Errorf("%s timestamp came back in %v, want UTC", name, ts.Location())
			}
		}
		// A product without option groups keeps options_order absent.
		p2, err := c.Product.Create().
			SetID(ids.New("prod")).SetShortID("P" + ids.Token(5)).SetSellerID(f.seller.ID).
			SetName("No options here").SetCategoryID(f.leaf.ID).SetCategoryName(f.leaf.Name).Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p2, err = c.Product.Get(ctx, p2.ID)
		if err != nil {
			t.Fatal(err)
		}
		if p2.OptionsOrder != nil || p2.Status != product.StatusProposed {
			t.Errorf("new product: options_order=%#v status=%s", p2.OptionsOrder, p2.Status)
		}
		if p2.CreatedAt.IsZero() || p2.CreatedAt.Location() != time.UTC || !p2.CreatedAt.Equal(p2.CreatedAt.Truncate(time.Millisecond)) {
			t.Errorf("default created_at %v must be UTC at millisecond precision", p2.CreatedAt)
		}

		// Edges resolve through the foreign-key fields.
		items, err := o.QueryItems().All(ctx)
		if err != nil || len(items) != 1 || items[0].ID != f.item.ID {
			t.Errorf("order items via edge: %v %v", items, err)
		}
		children, err := root.QueryChildren().IDs(ctx)
		if err != nil || len(children) != 1 || children[0] != f.leaf.ID {
			t.Errorf("category children: %v %v", children, err)
		}
	})
}

func TestConstraints(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		c := d.Ent
		f := seed(ctx, t, c)

		// AddTotal is not checked by ent's Go validators, so this reaches the
		// database: the CHECK constraint is the last line of defence.
		_, err := c.Order.UpdateOneID(f.order.ID).AddTotal(-1_000_000).Save(ctx)
		if !ent.IsConstraintError(err) {
			t.Errorf("negative total: got %v, want a constraint error", err)
		}
		_, err = c.OrderItem.UpdateOneID(f.item.ID).AddQuantity(-2).Save(ctx)
		if !ent.IsConstraintError(err) {
			t.Errorf("zero quantity: got %v, want a constraint error", err)
		}
		_, err = c.ProductVariant.UpdateOneID(f.variant.ID).AddPrice(-20_000).Save(ctx)
		if !ent.IsConstraintError(err) {
			t.Errorf("negative price: got %v, want a constraint error", err)
		}
		// Raw SQL bypasses ent entirely and must still be refused.
		_, err = d.SQL.ExecContext(ctx, "UPDATE orders SET discount = -1 WHERE id = '"+f.order.ID+"'")
		if err == nil {
			t.Error("raw negative discount was accepted")
		}
		o, err := c.Order.Get(ctx, f.order.ID)
		if err != nil || o.Total != f.order.Total || o.Discount != 0 {
			t.Errorf("order changed after rejected updates: %+v %v", o, err)
		}

		// ent's own validators stop bad values before SQL.
		if _, err := c.Order.UpdateOneID(f.order.ID).SetTotal(-1).Save(ctx); !ent.IsValidationError(err) {
			t.Errorf("SetTotal(-1): got %v, want a validation error", err)
		}
		if _, err := c.SellerAuthorization.UpdateOneID(f.auth.ID).SetAccessTokenHash("raw-token").Save(ctx); err == nil {
			t.Error("a token that is not a SHA-256 hex digest was stored")
		}

		// Unique and foreign keys.
		_, err = c.DeveloperAccount.Create().SetID(ids.New("acct")).SetName("dup").SetEmail(f.account.Email).Save(ctx)
		if !ent.IsConstraintError(err) {
			t.Errorf("duplicate email: got %v, want a constraint error", err)
		}
		_, err = c.Product.Create().SetID(ids.New("prod")).SetShortID("X1").SetSellerID("slr_missing").
			SetName("orphan").SetCategoryID("1").SetCategoryName("x").Save(ctx)
		if !ent.IsConstraintError(err) {
			t.Errorf("unknown seller: got %v, want a constraint error", err)
		}

		// Deleting a product takes its variants; deleting an order its items
		// and fulfillments.
		if err := c.Product.DeleteOneID(f.product.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := c.ProductVariant.Query().Where(productvariant.ProductID(f.product.ID)).Count(ctx); err != nil || n != 0 {
			t.Errorf("variants after product delete: %d %v", n, err)
		}
		if err := c.Order.DeleteOneID(f.order.ID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := c.OrderItem.Query().Count(ctx); err != nil || n != 0 {
			t.Errorf("order items after order delete: %d %v", n, err)
		}
		if n, err := c.Fulfillment.Query().Count(ctx); err != nil || n != 0 {
			t.Errorf("fulfillments after order delete: %d %v", n, err)
		}
	})
}

// Keyset listing compares (created_at, id) in SQL. On SQLite times are text,
// so this guards the storage format: fractional seconds of different lengths
// and input zones must still order chronologically.
func TestKeysetOrder(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		c := d.Ent
		s, err := c.Seller.Create().SetID(ids.New("slr")).SetName("s").SetShopName("s").Save(ctx)
		if err != nil {
			t.Fatal(err)
		}
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		manila := time.FixedZone("PHT", 8*3600)
		times := []time.Time{
			base,
			base.Add(450 * time.Millisecond),
			base.Add(500 * time.Millisecond).In(manila),
			base.Add(time.Second),
			base.Add(time.Second + 5*time.Millisecond).In(manila),
		}
		for i, ts := range times {
			_, err := c.Order.Create().SetID(fmt.Sprintf("ord_%02d", i)).SetSellerID(s.ID).SetCustomerID("c").
				SetStatus(order.StatusPaid).SetSubtotal(1).SetTotal(1).SetTax(0).SetShipping(0).SetDiscount(0).
				SetPaymentStatus("paid").SetFulfillmentStatus("unfulfilled").
				SetShippingAddress(dbtypes.Address{}).SetBillingAddress(dbtypes.Address{}).
				SetCreatedAt(ts).SetUpdatedAt(ts).Save(ctx)
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := c.Order.Query().
			Where(order.SellerID(s.ID), order.CreatedAtLT(times[3])).
			Order(ent.Desc(order.FieldCreatedAt), ent.Desc(order.FieldID)).
			IDs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"ord_02", "ord_01", "ord_00"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("page before %v (-want +got):\n%s", times[3], diff)
		}
	})
}

func TestWithTx(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		errBoom := errors.New("boom")
		err := db.WithTx(ctx, d.Ent, func(tx *ent.Tx) error {
			if _, err := tx.Seller.Create().SetID("slr_rolled_back").SetName("x").SetShopName("x").Save(ctx); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("WithTx error = %v, want boom", err)
		}
		if _, err := d.Ent.Seller.Get(ctx, "slr_rolled_back"); !ent.IsNotFound(err) {
			t.Errorf("rolled-back insert: got %v, want not found", err)
		}
		err = db.WithTx(ctx, d.Ent, func(tx *ent.Tx) error {
			_, err := tx.Seller.Create().SetID("slr_committed").SetName("x").SetShopName("x").Save(ctx)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Ent.Seller.Get(ctx, "slr_committed"); err != nil {
			t.Errorf("committed insert: %v", err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Error("panic in fn was swallowed")
				}
			}()
			_ = db.WithTx(ctx, d.Ent, func(tx *ent.Tx) error {
				_, _ = tx.Seller.Create().SetID("slr_panicked").SetName("x").SetShopName("x").Save(ctx)
				panic("fn failed")
			})
		}()
		if _, err := d.Ent.Seller.Get(ctx, "slr_panicked"); !ent.IsNotFound(err) {
			t.Errorf("insert of a panicking transaction: %v", err)
		}
	})
}
