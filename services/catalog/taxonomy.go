package catalog

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/mallplatform/partnerapi/services/catalog/taxonomy"
)

// Well-known categories of the seeded taxonomy, for tests and sandbox data
// in other packages. Ids are stable: new categories take new numbers.
const (
	// ElectronicsCategoryID is a root category.
	ElectronicsCategoryID = "100001"
	// MobilePhonesCategoryID (Mobile Phones & Gadgets) is a parent category:
	// products are rejected there.
	MobilePhonesCategoryID = "100002"
	// SmartphonesCategoryID is a leaf with mandatory Brand (inherited) and
	// Storage capacity.
	SmartphonesCategoryID = "100003"
	// RetiredCategoryID (Feature Phones) is an inactive leaf: not listed, and
	// products are rejected there.
	RetiredCategoryID = "100004"
	// DressesCategoryID is a leaf with a mandatory MULTIVALUE size (inherited
	// from Women's Clothing).
	DressesCategoryID = "100025"
	// CookwareCategoryID is a leaf whose only mandatory attribute is its
	// Material (SELECT).
	CookwareCategoryID = "100046"
	// CoffeeCategoryID is a leaf with mandatory Brand and Expiry date
	// (inherited from Groceries).
	CoffeeCategoryID = "100081"
)

// Attribute ids of the well-known categories. An attribute id is its
// category's id and a stable slug.
const (
	// AttrElectronicsBrand is TEXT, mandatory, inherited by every
	// Electronics leaf.
	AttrElectronicsBrand = "100001-brand"
	// AttrElectronicsWarrantyMonths is NUMBER (months), optional.
	AttrElectronicsWarrantyMonths = "100001-warranty-period"
	// AttrElectronicsWarrantyType is SELECT, optional.
	AttrElectronicsWarrantyType = "100001-warranty-type"
	// AttrSmartphoneStorage is SELECT, mandatory.
	AttrSmartphoneStorage = "100003-storage-capacity"
	// AttrSmartphoneColour is SELECT, optional.
	AttrSmartphoneColour = "100003-colour"
	// AttrSmartphoneNetwork is MULTIVALUE, optional.
	AttrSmartphoneNetwork = "100003-network"
	// AttrSmartphoneDualSIM is BOOLEAN, optional.
	AttrSmartphoneDualSIM = "100003-dual-sim"
	// AttrWomenSize is MULTIVALUE, mandatory for every Women's Clothing leaf.
	AttrWomenSize = "100024-size"
	// AttrCookwareMaterial is SELECT, mandatory.
	AttrCookwareMaterial = "100046-material"
	// AttrCookwareInduction is BOOLEAN, optional.
	AttrCookwareInduction = "100046-induction-compatible"
	// AttrGroceriesBrand is TEXT, mandatory for every Groceries leaf.
	AttrGroceriesBrand = "100079-brand"
	// AttrGroceriesExpiry is DATE, mandatory for every Groceries leaf.
	AttrGroceriesExpiry = "100079-expiry-date"
)

// LoadTaxonomy stores a taxonomy when the store has no category yet and
// reports whether it did; on a store that has a tree it changes nothing, so
// it is safe to run on every start of the dev and sandbox roles and again by
// an operator.
func LoadTaxonomy(ctx context.Context, store Store, t *taxonomy.Tree) (bool, error) {
	cats, attrs := Flatten(t)
	return store.InsertTaxonomy(ctx, cats, attrs)
}

// SeedCategories stores the shipped taxonomy on an empty store (the sandbox).
func SeedCategories(ctx context.Context, store Store) error {
	t, err := taxonomy.Default()
	if err != nil {
		return err
	}
	_, err = LoadTaxonomy(ctx, store, t)
	return err
}

// DefaultTaxonomy is the shipped taxonomy as stored.
func DefaultTaxonomy() ([]Category, []Attribute, error) {
	t, err := taxonomy.Default()
	if err != nil {
		return nil, nil, err
	}
	cats, attrs := Flatten(t)
	return cats, attrs, nil
}

// taxonomyCreatedAt is fixed so a stored tree is identical wherever it is
// loaded.
var taxonomyCreatedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Flatten turns a taxonomy into categories in pre-order (parents before
// children) with positions 10, 20, ... (gaps leave room to insert later),
// and the attributes of every category.
func Flatten(t *taxonomy.Tree) ([]Category, []Attribute) {
	var cats []Category
	var attrs []Attribute
	var walk func(n taxonomy.Node, parent string)
	walk = func(n taxonomy.Node, parent string) {
		cats = append(cats, Category{
			ID:          n.ID,
			Name:        n.Name,
			Handle:      handleOf(n.Name),
			Description: n.Description,
			ParentID:    parent,
			Active:      !n.Retired,
			Position:    (len(cats) + 1) * 10,
			CreatedAt:   taxonomyCreatedAt,
		})
		for i, a := range n.Attributes {
			attrs = append(attrs, Attribute{
				ID:            n.ID + "-" + a.Slug,
				CategoryID:    n.ID,
				Name:          a.Name,
				InputType:     InputType(a.Type),
				Mandatory:     a.Mandatory,
				AllowedValues: a.Values,
				Unit:          a.Unit,
				Position:      i,
			})
		}
		for _, c := range n.Children {
			walk(c, n.ID)
		}
	}
	for _, root := range t.Categories {
		walk(root, "")
	}
	return cats, attrs
}

// handleOf makes a URL-safe handle from a name: "Sandals & Slippers" →
// "sandals-and-slippers".
func handleOf(name string) string {
	name = strings.ReplaceAll(strings.ToLower(name), "&", " and ")
	var b strings.Builder
	dash := false
	for _, r := range name {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
			dash = false
		case r == '\'':
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
