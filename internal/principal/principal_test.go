package principal

import (
	"reflect"
	"testing"
	"time"

	"google.golang.org/grpc/metadata"
)

func TestMetadataRoundTrip(t *testing.T) {
	reset := time.UnixMilli(1795249920000).UTC()
	in := &Principal{
		AppID: "app_1", ClientID: "test_x", AccountID: "acc_1", Environment: "sandbox",
		Scopes: []string{"orders:read", "catalog:read"}, SellerID: "slr_1", AccessToken: "mpat_abc",
		RateLimits: []RateLimit{{Bucket: "app", Limit: 600, Remaining: 599, Window: time.Minute, Reset: reset}},
	}
	out, ok := FromMetadata(metadata.Pairs(in.AppendMetadata(nil)...))
	if !ok {
		t.Fatal("principal not found in its own metadata")
	}
	if !reflect.DeepEqual(out.RateLimits, in.RateLimits) {
		t.Fatalf("rate limits %+v, want %+v", out.RateLimits, in.RateLimits)
	}
	if !reflect.DeepEqual(out, in) {
		t.Fatalf("round trip %+v, want %+v", out, in)
	}
	if _, ok := FromMetadata(metadata.Pairs("x-mp-seller-id", "slr_1")); ok {
		t.Fatal("metadata without an app is not a partner principal")
	}
	// Values that a hand-made text form could not hold travel as they are.
	odd := &Principal{AppID: "app|1", ClientID: "test x", Scopes: []string{"a b", "c|d"}}
	if got, ok := FromMetadata(metadata.Pairs(odd.AppendMetadata(nil)...)); !ok || !reflect.DeepEqual(got.Scopes, odd.Scopes) || got.AppID != odd.AppID {
		t.Fatalf("odd values: %+v", got)
	}
	if _, ok := FromMetadata(metadata.Pairs(KeyApp, "\xff\xff not a message")); ok {
		t.Fatal("a value that does not decode is not a principal")
	}
}

func TestValidRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"req_06gzt": true, "a.b-c_D9": true, "": false, "has space": false, "new\nline": false,
		string(make([]byte, 129)): false,
	} {
		if ValidRequestID(id) != want {
			t.Errorf("%q: got %v", id, !want)
		}
	}
}
