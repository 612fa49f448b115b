package gateway_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// TestSellersMe: GET /open/v1/sellers/me answers the token's own shop with
// exactly the contract's fields, for any app of the seller whatever it was
// granted, and never another seller's addresses.
func TestSellersMe(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	me := func(t *testing.T, c *sdk.Client) (map[string]json.RawMessage, []map[string]any) {
		t.Helper()
		r := send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/sellers/me"})
		if r.Status != 200 {
			t.Fatalf("sellers/me: %d %s", r.Status, r.Body)
		}
		var body struct {
			Success bool                       `json:"success"`
			Data    map[string]json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil || !body.Success {
			t.Fatalf("body %s: %v", r.Body, err)
		}
		if keys := sortedKeys(body.Data); !reflect.DeepEqual(keys, []string{"pickupAddresses", "sellerId", "shopName"}) {
			t.Fatalf("seller fields %v", keys)
		}
		var addrs []map[string]any
		if err := json.Unmarshal(body.Data["pickupAddresses"], &addrs); err != nil {
			t.Fatal(err)
		}
		return body.Data, addrs
	}

	seen := map[string]string{}
	for i, s := range env.Creds.Sellers {
		data, addrs := me(t, env.Client(t, "limited", i))
		var id string
		_ = json.Unmarshal(data["sellerId"], &id)
		if id != s.SellerID {
			t.Fatalf("seller %d: sellerId %q, want %q", i, id, s.SellerID)
		}
		if len(addrs) != 2 {
			t.Fatalf("seller %d: %d pickup addresses, want 2", i, len(addrs))
		}
		all := []string{"addressId", "city", "isDefault", "line1", "line2", "name", "phone", "postalCode", "province", "psgcCode", "region"}
		withoutLine2 := slices.DeleteFunc(slices.Clone(all), func(k string) bool { return k == "line2" })
		if got := sortedKeys(addrs[0]); !reflect.DeepEqual(got, all) || addrs[0]["isDefault"] != true || addrs[0]["psgcCode"] != "1380300000" {
			t.Fatalf("seller %d default address %v", i, addrs[0])
		}
		if got := sortedKeys(addrs[1]); !reflect.DeepEqual(got, withoutLine2) || addrs[1]["isDefault"] != false || addrs[1]["province"] != "Laguna" {
			t.Fatalf("seller %d second address %v", i, addrs[1])
		}
		for _, a := range addrs {
			aid := a["addressId"].(string)
			if owner, ok := seen[aid]; ok {
				t.Fatalf("address %s answered to %s and %s", aid, owner, s.SellerID)
			}
			seen[aid] = s.SellerID
		}
	}

	t.Run("a grant without any scope reads its own shop", func(t *testing.T) {
		app, err := env.Auth.AppCredentials(ctx, env.Creds.Apps["full"].ClientID)
		if err != nil {
			t.Fatal(err)
		}
		seller := env.Creds.Sellers[1].SellerID
		tok, err := env.Auth.AuthorizeSeller(ctx, app.App.ID, seller, []string{}, time.Hour, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := me(t, env.Client(t, "full", -1).WithSeller(seller, tok.AccessToken))
		if string(data["sellerId"]) != `"`+seller+`"` {
			t.Fatalf("sellerId %s", data["sellerId"])
		}
	})

	t.Run("another seller's id with this seller's token", func(t *testing.T) {
		own := env.Creds.Sellers[0]
		c := env.Client(t, "full", -1).WithSeller(env.Creds.Sellers[1].SellerID, own.Tokens["full"].AccessToken)
		// As for any seller-token route: the token does not open another
		// seller, which is as missing as one that does not exist.
		expectError(t, send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/sellers/me"}), 404, "NOT_FOUND")
	})

	t.Run("the seller headers are required", func(t *testing.T) {
		expectError(t, send(t, env.Client(t, "full", -1), sdk.Request{Method: "GET", Path: "/open/v1/sellers/me"}), 401, "SELLER_TOKEN_REQUIRED")
	})
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
