package sandboxseed

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
	"github.com/mallplatform/partnerapi/services/sandbox/ordergen"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// productSpec is a sandbox listing; attribute values are derived from the
// category's own attribute definitions, so the seed follows the taxonomy.
type productSpec struct {
	title, category string
	price           int64
	options         []catalog.OptionInput // one variant per option value
}

var sellerProducts = [][]productSpec{
	{
		{"Enamel cast iron casserole 24 cm", catalog.CookwareCategoryID, 489900, []catalog.OptionInput{{Name: "Colour", Value: "Cherry Red"}, {Name: "Colour", Value: "Sage Green"}}},
		{"Single-origin Benguet arabica beans 500 g", catalog.CoffeeCategoryID, 69500, nil},
		{"Linen wrap midi dress", catalog.DressesCategoryID, 179900, []catalog.OptionInput{{Name: "Size", Value: "S"}, {Name: "Size", Value: "M"}, {Name: "Size", Value: "L"}}},
	},
	{
		{"Android smartphone 6.7-inch 256 GB", catalog.SmartphonesCategoryID, 1899900, []catalog.OptionInput{{Name: "Colour", Value: "Midnight"}, {Name: "Colour", Value: "Silver"}}},
		{"Barako coffee ground 250 g", catalog.CoffeeCategoryID, 24500, nil},
	},
}

// seedCommerce writes the category tree, a few products per seller and the
// sellers' orders (whose lines point at those products).
func seedCommerce(ctx context.Context, d Deps, creds *sdk.Credentials, rng *rand.Rand) error {
	store := catalog.NewEntStore(d.DB)
	if err := catalog.SeedCategories(ctx, store); err != nil {
		return fmt.Errorf("seed categories: %w", err)
	}
	// The shipped calendar, as the migrate step loads it in production.
	if _, err := shipping.SeedCalendar(ctx, shipping.NewEntStore(d.DB)); err != nil {
		return fmt.Errorf("seed the shipping calendar: %w", err)
	}
	// The built-in channels, as the migrate step stores them: the shipping
	// options route quotes from them, and the seeded orders name them and
	// their pickup slots follow them (an operator's set is never
	// overwritten).
	if _, err := channels.SeedDefault(ctx, channels.NewEntStore(d.DB)); err != nil {
		return fmt.Errorf("seed the shipping channels: %w", err)
	}
	svc, orderStore := commerceSteps(d)
	for i, seller := range creds.Sellers {
		if err := seedShopCommerce(ctx, d, svc, orderStore, seller.SellerID, i%len(sellerProducts), rng); err != nil {
			return err
		}
	}
	return nil
}

func commerceSteps(d Deps) (*catalog.Service, orders.Store) {
	svc := catalog.NewService(catalog.Config{Store: catalog.NewEntStore(d.DB), Business: clock.Uniform{C: d.Clock},
		Events: events.NewRecorder(events.NewEntStore(d.DB), d.Clock)})
	return svc, orders.NewEntStore(d.DB)
}

// seedShopCommerce writes one seller's products (the set numbered set) and
// its orders, whose lines point at those products.
func seedShopCommerce(ctx context.Context, d Deps, svc *catalog.Service, orderStore orders.Store, sellerID string, set int, rng *rand.Rand) error {
	sctx := principal.WithSeller(ctx, sellerID)
	var lines []ordergen.Product
	for j, spec := range sellerProducts[set] {
		in, err := productInput(ctx, svc, spec, j)
		if err != nil {
			return err
		}
		p, err := svc.CreateProduct(sctx, in)
		if err != nil {
			return fmt.Errorf("seed product %q: %w", spec.title, err)
		}
		for _, v := range p.Variants {
			title := p.Name
			if len(v.Options) > 0 && v.Options[0].Value != nil {
				title += " - " + *v.Options[0].Value
			}
			lines = append(lines, ordergen.Product{ProductID: p.ID, VariantID: v.ID, Title: title, SKU: deref(v.SKU), UnitPrice: deref(v.Price), Thumbnail: p.Images[0]})
		}
	}
	if err := ordergen.Seed(ctx, orderStore, sellerID, lines, d.OrdersPerSeller, d.Clock.Now(), rng); err != nil {
		return fmt.Errorf("seed orders: %w", err)
	}
	return nil
}

func productInput(ctx context.Context, svc *catalog.Service, spec productSpec, n int) (catalog.ProductInput, error) {
	attrs, err := svc.ListCategoryAttributes(ctx, spec.category)
	if err != nil {
		return catalog.ProductInput{}, fmt.Errorf("seed product %q: %w", spec.title, err)
	}
	image := fmt.Sprintf("https://cdn.sandbox.example.ph/products/%s-%d.jpg", spec.category, n)
	weight, side := 750.0, 20.0
	in := catalog.ProductInput{
		Title:       spec.title,
		Description: "Sandbox listing: " + spec.title + ".",
		Category:    spec.category,
		Images:      []string{image},
		Weight:      &weight, Length: &side, Width: &side, Height: &side,
	}
	for _, a := range attrs {
		if !a.Mandatory {
			continue
		}
		v, err := exampleValue(a)
		if err != nil {
			return catalog.ProductInput{}, err
		}
		in.AttributeValues = append(in.AttributeValues, catalog.AttributeValue{AttributeID: a.ID, Value: v})
	}
	prefix := strings.ToUpper(strings.ReplaceAll(spec.category, "-", ""))
	if len(spec.options) == 0 {
		in.Variants = []catalog.VariantInput{variant(fmt.Sprintf("SBX-%s-%d", prefix, n), spec.price, nil)}
		return in, nil
	}
	for k, opt := range spec.options {
		in.Variants = append(in.Variants, variant(fmt.Sprintf("SBX-%s-%d-%d", prefix, n, k), spec.price, []catalog.OptionInput{opt}))
	}
	return in, nil
}

func variant(sku string, price int64, opts []catalog.OptionInput) catalog.VariantInput {
	stock := int64(25)
	return catalog.VariantInput{SKU: &sku, Price: &price, Stock: &stock, Options: opts}
}

// exampleValue answers an attribute with a plausible value of its type.
func exampleValue(a catalog.Attribute) (json.RawMessage, error) {
	var v any
	switch a.InputType {
	case catalog.InputText:
		v = "Sandbox " + a.Name
	case catalog.InputNumber:
		v = 12
	case catalog.InputBoolean:
		v = true
	case catalog.InputDate:
		v = "2027-06-30"
	case catalog.InputSelect:
		if len(a.AllowedValues) == 0 {
			return nil, fmt.Errorf("seed: attribute %s has no allowed values", a.ID)
		}
		v = a.AllowedValues[0]
	case catalog.InputMultivalue:
		if len(a.AllowedValues) == 0 {
			return nil, fmt.Errorf("seed: attribute %s has no allowed values", a.ID)
		}
		v = []string{a.AllowedValues[0]}
	default:
		return nil, fmt.Errorf("seed: attribute %s has unknown type %s", a.ID, a.InputType)
	}
	return json.Marshal(v)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
