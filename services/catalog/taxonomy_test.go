package catalog

import (
	"regexp"
	"testing"
)

var (
	handlePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	idPattern     = regexp.MustCompile(`^[0-9]{6}$`)
)

func TestDefaultTaxonomyShape(t *testing.T) {
	cats, attrs, err := DefaultTaxonomy()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Category{}
	handles := map[string]string{}
	children := map[string]int{}
	lastPos := 0
	for _, c := range cats {
		if _, dup := byID[c.ID]; dup {
			t.Errorf("category id %s used twice", c.ID)
		}
		if !idPattern.MatchString(c.ID) {
			t.Errorf("category id %q is not a six-digit id", c.ID)
		}
		if !handlePattern.MatchString(c.Handle) {
			t.Errorf("handle %q of %s is not URL-safe", c.Handle, c.ID)
		}
		if other, dup := handles[c.Handle]; dup {
			t.Errorf("handle %q used by %s and %s", c.Handle, other, c.ID)
		}
		handles[c.Handle] = c.ID
		if c.Position <= lastPos {
			t.Errorf("position of %s does not grow in pre-order", c.ID)
		}
		lastPos = c.Position
		if c.ParentID != "" {
			if _, seen := byID[c.ParentID]; !seen {
				t.Errorf("%s comes before its parent %s", c.ID, c.ParentID)
			}
			if c.Active {
				children[c.ParentID]++
			}
		}
		byID[c.ID] = c
	}
	depth := func(c Category) int {
		d := 1
		for c.ParentID != "" {
			c = byID[c.ParentID]
			d++
		}
		return d
	}
	roots, leaves := 0, 0
	for _, c := range cats {
		if c.ParentID == "" {
			roots++
		}
		if c.Active && children[c.ID] == 0 {
			leaves++
			if d := depth(c); d != 3 {
				t.Errorf("leaf %s (%s) is at depth %d, want 3", c.ID, c.Name, d)
			}
		}
		if depth(c) > MaxCategoryDepth {
			t.Errorf("%s is deeper than MaxCategoryDepth", c.ID)
		}
	}
	t.Logf("seeded %d categories: %d roots, %d leaves; %d attributes", len(cats), roots, leaves, len(attrs))
	if roots < 8 || leaves < 60 {
		t.Errorf("%d roots and %d leaves; want at least 8 and 60", roots, leaves)
	}

	attrByID := map[string]Attribute{}
	types := map[InputType]int{}
	for _, a := range attrs {
		if _, dup := attrByID[a.ID]; dup {
			t.Errorf("attribute id %s used twice", a.ID)
		}
		attrByID[a.ID] = a
		types[a.InputType]++
		if _, ok := byID[a.CategoryID]; !ok {
			t.Errorf("attribute %s belongs to unknown category %s", a.ID, a.CategoryID)
		}
		hasValues := a.InputType == InputSelect || a.InputType == InputMultivalue
		if hasValues != (len(a.AllowedValues) > 0) {
			t.Errorf("attribute %s (%s) has allowed values %v", a.ID, a.InputType, a.AllowedValues)
		}
		seen := map[string]bool{}
		for _, v := range a.AllowedValues {
			if seen[v] {
				t.Errorf("attribute %s allows %q twice", a.ID, v)
			}
			seen[v] = true
		}
	}
	for _, typ := range []InputType{InputText, InputNumber, InputBoolean, InputSelect, InputMultivalue, InputDate} {
		if types[typ] == 0 {
			t.Errorf("no seeded attribute of type %s", typ)
		}
	}

	// The exported ids mean what their documentation says.
	leaf := func(id string) bool { return byID[id].Active && children[id] == 0 }
	for _, tc := range []struct {
		id   string
		name string
		ok   bool
	}{
		{ElectronicsCategoryID, "Electronics", byID[ElectronicsCategoryID].ParentID == ""},
		{MobilePhonesCategoryID, "Mobile Phones & Gadgets", children[MobilePhonesCategoryID] > 0},
		{SmartphonesCategoryID, "Smartphones", leaf(SmartphonesCategoryID)},
		{RetiredCategoryID, "Feature Phones", !byID[RetiredCategoryID].Active},
		{DressesCategoryID, "Dresses", leaf(DressesCategoryID)},
		{CookwareCategoryID, "Cookware", leaf(CookwareCategoryID)},
		{CoffeeCategoryID, "Coffee", leaf(CoffeeCategoryID)},
	} {
		if byID[tc.id].Name != tc.name || !tc.ok {
			t.Errorf("category constant %s: %+v", tc.id, byID[tc.id])
		}
	}
	for _, tc := range []struct {
		id        string
		category  string
		typ       InputType
		mandatory bool
	}{
		{AttrElectronicsBrand, ElectronicsCategoryID, InputText, true},
		{AttrElectronicsWarrantyMonths, ElectronicsCategoryID, InputNumber, false},
		{AttrElectronicsWarrantyType, ElectronicsCategoryID, InputSelect, false},
		{AttrSmartphoneStorage, SmartphonesCategoryID, InputSelect, true},
		{AttrSmartphoneColour, SmartphonesCategoryID, InputSelect, false},
		{AttrSmartphoneNetwork, SmartphonesCategoryID, InputMultivalue, false},
		{AttrSmartphoneDualSIM, SmartphonesCategoryID, InputBoolean, false},
		{AttrWomenSize, "100024", InputMultivalue, true},
		{AttrCookwareMaterial, CookwareCategoryID, InputSelect, true},
		{AttrCookwareInduction, CookwareCategoryID, InputBoolean, false},
		{AttrGroceriesBrand, "100079", InputText, true},
		{AttrGroceriesExpiry, "100079", InputDate, true},
	} {
		a, ok := attrByID[tc.id]
		if !ok || a.CategoryID != tc.category || a.InputType != tc.typ || a.Mandatory != tc.mandatory {
			t.Errorf("attribute constant %s: %+v", tc.id, a)
		}
	}
	if byID[DressesCategoryID].ParentID != "100024" || byID["100079"].Name != "Groceries" {
		t.Error("attribute constants point at the wrong ancestors")
	}
}

func TestHandleOf(t *testing.T) {
	for in, want := range map[string]string{
		"Mobile Phones & Gadgets": "mobile-phones-and-gadgets",
		"Women's Clothing":        "womens-clothing",
		"T-Shirts":                "t-shirts",
		"Non-fiction":             "non-fiction",
		"  Odd   spacing  ":       "odd-spacing",
	} {
		if got := handleOf(in); got != want {
			t.Errorf("handleOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShortID(t *testing.T) {
	pattern := regexp.MustCompile(`^[2-9A-HJ-NP-Z]{10}$`)
	seen := map[string]bool{}
	for range 10000 {
		id := newShortID()
		if !pattern.MatchString(id) {
			t.Fatalf("short id %q", id)
		}
		if seen[id] {
			t.Fatalf("short id %q drawn twice in 10000", id)
		}
		seen[id] = true
	}
}
