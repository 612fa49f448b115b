package gateway_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
)

// A request signed by hand from the spec's recipe, not through the SDK:
// the query is sent unsorted and with '+' for a space; the signed string
// carries the canonical form the spec describes.
func TestHandSignedRequestFromTheSpec(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	app := env.Creds.Apps["full"]
	seller := env.Creds.Sellers[0]
	ts := strconv.FormatInt(env.Clock.Now().Unix(), 10)
	nonce := "0123456789abcdef0123456789abcdef"
	rawQuery := "status=SHIPPED&page=1&limit=5&created_after=2020-01-01T00%3A00%3A00Z&sort=created_at_desc"
	canonical := "created_after=2020-01-01T00%3A00%3A00Z&limit=5&page=1&sort=created_at_desc&status=SHIPPED"
	emptyBodyHash := sha256.Sum256(nil)
	toSign := ts + ":" + app.ClientID + ":GET:/open/v1/orders:" + canonical + ":" + hex.EncodeToString(emptyBodyHash[:]) + ":" + nonce
	mac := hmac.New(sha256.New, []byte(app.ClientSecret))
	mac.Write([]byte(toSign))

	req, err := http.NewRequest("GET", env.BaseURL+"/open/v1/orders?"+rawQuery, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Platform-Partner-Id", app.ClientID)
	req.Header.Set("X-Platform-Timestamp", ts)
	req.Header.Set("X-Platform-Signature-Version", "3")
	req.Header.Set("X-Platform-Nonce", nonce)
	req.Header.Set("X-Platform-Signature", hex.EncodeToString(mac.Sum(nil)))
	req.Header.Set("X-Platform-Access-Token", seller.Tokens["full"].AccessToken)
	req.Header.Set("X-Platform-Seller-Id", seller.SellerID)
	r := do(t, req)
	if r.Status != http.StatusOK {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
}
