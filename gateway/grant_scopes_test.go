package gateway_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// TestSellerGrantNarrowsScopes: a call's effective scopes are the app's
// intersected with what the seller granted. The "full" app holds every
// scope; grants narrower than that limit what its calls for the seller may do.
func TestSellerGrantNarrowsScopes(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	app, err := env.Auth.AppCredentials(ctx, env.Creds.Apps["full"].ClientID)
	if err != nil {
		t.Fatal(err)
	}
	seller := env.Creds.Sellers[0].SellerID
	clientFor := func(scopes ...string) *sdk.Client {
		t.Helper()
		tok, err := env.Auth.AuthorizeSeller(ctx, app.App.ID, seller, scopes, time.Hour, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return env.Client(t, "full", -1).WithSeller(seller, tok.AccessToken)
	}

	catalogOnly := clientFor("catalog:read")
	expectError(t, send(t, catalogOnly, sdk.Request{Method: "GET", Path: "/open/v1/orders"}), 403, "FORBIDDEN")
	if r := send(t, catalogOnly, sdk.Request{Method: "GET", Path: "/open/v1/products"}); r.Status != 200 {
		t.Fatalf("products with a catalog:read grant: %d %s", r.Status, r.Body)
	}

	// Orders without customer:email:read in the grant: never a buyerEmail,
	// although the app itself holds that scope.
	ordersOnly := clientFor("orders:read")
	r := send(t, ordersOnly, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=100"})
	if r.Status != 200 {
		t.Fatalf("orders with an orders:read grant: %d %s", r.Status, r.Body)
	}
	if strings.Contains(string(r.Body), `"buyerEmail"`) {
		t.Fatal("buyerEmail returned although the seller did not grant customer:email:read")
	}
	withEmail := clientFor("orders:read", "customer:email:read")
	r = send(t, withEmail, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=100"})
	if r.Status != 200 || !strings.Contains(string(r.Body), `"buyerEmail"`) {
		t.Fatalf("orders with customer:email:read granted: %d, buyerEmail present %v", r.Status, strings.Contains(string(r.Body), `"buyerEmail"`))
	}
}
