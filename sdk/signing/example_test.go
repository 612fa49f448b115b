package signing_test

import (
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/sdk/signing"
)

func ExampleCanonicalQuery() {
	q, _ := signing.CanonicalQuery("status=SHIPPED&sort=Zeta&q=red+shoes&sort=(alpha)&limit=20")
	fmt.Println(q)
	// Output: limit=20&q=red%20shoes&sort=(alpha)&sort=Zeta&status=SHIPPED
}

func ExampleRequest_StringToSign() {
	r := signing.Request{
		Timestamp: "1735689600",
		ClientID:  "test_4f2a9c1d7e",
		Method:    "get",
		Path:      "/open/v1/orders",
		RawQuery:  "status=SHIPPED&page=1",
		Nonce:     "0123456789abcdef0123456789abcdef",
	}
	s, _ := r.StringToSign()
	fmt.Println(s)
	// Output: 1735689600:test_4f2a9c1d7e:GET:/open/v1/orders:page=1&status=SHIPPED:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855:0123456789abcdef0123456789abcdef
}

func ExampleVerifyRequest() {
	// The gateway keeps one Key per app secret; during a rotation it passes
	// both the old and the new one.
	oldKey := signing.NewKey([]byte("sk_test_old"))
	newKey := signing.NewKey([]byte("sk_test_new"))

	h, _ := signing.SignRequest("test_4f2a9c1d7e", []byte("sk_test_new"), "GET", "/open/v1/categories", "", nil,
		time.Unix(1735689600, 0), "0123456789abcdef0123456789abcdef")

	r := signing.Request{Timestamp: h.Timestamp, ClientID: h.PartnerID, Method: "GET",
		Path: "/open/v1/categories", Nonce: h.Nonce}
	k, err := signing.VerifyRequest(&r, h.Signature, oldKey, newKey)
	fmt.Println(k == newKey, err)
	// Output: true <nil>
}
