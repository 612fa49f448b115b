package events

import "testing"

// A type whose resource has no read scope and no addressee must stop the
// package from loading rather than be readable by every app of the seller.
func TestCatalogueFailsClosedOnAResourceWithoutScope(t *testing.T) {
	if err := checkCatalogue(catalogue); err != nil {
		t.Fatalf("the catalogue itself: %v", err)
	}
	if err := checkCatalogue([]Type{Type(9999)}); err == nil {
		t.Fatal("a type of an undeclared resource passed the check")
	}
	for _, t0 := range catalogue {
		if WireName(t0) == "inventory.updated" && ReadScope(t0) != "catalog:read" {
			t.Errorf("inventory.updated is read with %q, want catalog:read", ReadScope(t0))
		}
	}
}
