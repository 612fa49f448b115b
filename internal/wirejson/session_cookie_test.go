package wirejson_test

import (
	"testing"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// A field marked (mp.options.v1.field).session_cookie never travels in
// JSON: it is not written, not read, and not in the message's shape.
func TestSessionCookieFieldNeverInJSON(t *testing.T) {
	b, err := wirejson.Marshal(&authv1.SellerVerified{OtpRequired: true, OtpExpiresIn: 300, MaskedDestination: "+63 9** *** 4567", SessionCookie: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"otp_required":true,"otp_expires_in":300,"masked_destination":"+63 9** *** 4567"}`; got != want {
		t.Errorf("marshalled %s, want %s", got, want)
	}
	if err := wirejson.Unmarshal([]byte(`{"session_cookie":"x"}`), &authv1.SellerVerified{}); err == nil {
		t.Error("a session_cookie member was read")
	}
	for _, f := range wirejson.Shape((&authv1.SellerVerified{}).ProtoReflect().Descriptor()).Fields {
		if f.Name == "session_cookie" {
			t.Error("the shape lists the session cookie")
		}
	}
}
