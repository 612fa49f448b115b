package principal

import (
	"context"
	"testing"
)

func TestContextCarriesPrincipalAndSeller(t *testing.T) {
	app := &Principal{AppID: "app_1", SellerID: "sel_1", AccessToken: "tok"}
	base := context.Background()

	if _, ok := FromContext(base); ok {
		t.Fatal("a bare context carries no principal")
	}
	if _, ok := Seller(base); ok {
		t.Fatal("a bare context carries no seller")
	}

	// A principal alone names no verified seller, whatever it was sent.
	ctx := NewContext(base, app)
	if p, ok := FromContext(ctx); !ok || p != app {
		t.Fatalf("FromContext = %v, %v", p, ok)
	}
	if s, ok := Seller(ctx); ok {
		t.Fatalf("unverified principal gave seller %q", s)
	}

	// A verified principal carries both in one link.
	ctx = NewVerifiedContext(base, app)
	if p, ok := FromContext(ctx); !ok || p != app {
		t.Fatalf("FromContext = %v, %v", p, ok)
	}
	if s, ok := Seller(ctx); !ok || s != "sel_1" {
		t.Fatalf("Seller = %q, %v", s, ok)
	}

	// A seller recorded inside keeps the principal outside it visible and
	// takes the place of the outer seller.
	inner := WithSeller(ctx, "sel_2")
	if p, ok := FromContext(inner); !ok || p != app {
		t.Fatalf("FromContext through WithSeller = %v, %v", p, ok)
	}
	if s, err := RequireSeller(inner); err != nil || s != "sel_2" {
		t.Fatalf("RequireSeller = %q, %v", s, err)
	}

	// A seller recorded as "" hides the outer one: no seller.
	if s, ok := Seller(WithSeller(ctx, "")); ok {
		t.Fatalf("Seller after WithSeller(\"\") = %q", s)
	}
	if _, err := RequireSeller(WithSeller(ctx, "")); err == nil {
		t.Fatal("RequireSeller accepted an empty seller")
	}

	// A value of another key passes through.
	type other struct{}
	if v := NewVerifiedContext(context.WithValue(base, other{}, 7), app).Value(other{}); v != 7 {
		t.Fatalf("other key = %v", v)
	}
}

func TestWithGrant(t *testing.T) {
	app := &Principal{AppID: "app_1", Scopes: []string{"order:read", "product:write", "customer:email:read"}}

	all := app.WithGrant([]string{"customer:email:read", "order:read", "product:write", "shipping:write"})
	if all == app || len(all.Scopes) != 3 {
		t.Fatalf("full grant: %+v", all)
	}

	some := app.WithGrant([]string{"order:read"})
	if len(some.Scopes) != 1 || some.Scopes[0] != "order:read" {
		t.Fatalf("narrowed scopes = %v", some.Scopes)
	}
	if len(app.Scopes) != 3 || app.Scopes[1] != "product:write" {
		t.Fatalf("narrowing changed the app's scopes: %v", app.Scopes)
	}
	if !all.HasScope("product:write") || some.HasScope("product:write") {
		t.Fatal("HasScope does not follow the grant")
	}
}
