package principal

import (
	"reflect"
	"strconv"
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

// TestDecodedPrincipalsKept: calls with the same encoding share its decoding
// but never each other's seller, token or narrowed scopes, an encoding with
// the buckets' state is not kept, and the set stays bounded.
func TestDecodedPrincipalsKept(t *testing.T) {
	app := &Principal{AppID: "app_kept", ClientID: "test_k", AccountID: "acc_k", Environment: "sandbox",
		Scopes: []string{"orders:read", "orders:write"}}
	kv := app.AppendMetadata(nil)
	first, ok := FromMetadata(metadata.Pairs(append(kv, KeySellerID, "slr_1", KeyAccessToken, "tok_1")...))
	if !ok {
		t.Fatal("not decoded")
	}
	if _, kept := decodedApps.Get(kv[1], time.Now()); !kept {
		t.Fatal("an encoding without buckets is not kept")
	}
	narrowed := first.WithGrant([]string{"orders:read"})
	first.SellerID = "changed"
	second, ok := FromMetadata(metadata.Pairs(append(kv, KeySellerID, "slr_2", KeyAccessToken, "tok_2")...))
	if !ok || second == first {
		t.Fatalf("second call: %p %p %v", second, first, ok)
	}
	want := &Principal{AppID: "app_kept", ClientID: "test_k", AccountID: "acc_k", Environment: "sandbox",
		Scopes: []string{"orders:read", "orders:write"}, SellerID: "slr_2", AccessToken: "tok_2"}
	if !reflect.DeepEqual(second, want) || len(narrowed.Scopes) != 1 {
		t.Fatalf("second call %+v, want %+v (narrowed %v)", second, want, narrowed.Scopes)
	}
	withBuckets := *app
	withBuckets.RateLimits = []RateLimit{{Bucket: "app", Limit: 600, Remaining: 5, Window: time.Minute, Reset: time.UnixMilli(1795249920000).UTC()}}
	kvb := withBuckets.AppendMetadata(nil)
	if got, ok := FromMetadata(metadata.Pairs(kvb...)); !ok || len(got.RateLimits) != 1 || got.RateLimits[0].Remaining != 5 {
		t.Fatalf("with buckets: %+v", got)
	}
	if _, kept := decodedApps.Get(kvb[1], time.Now()); kept {
		t.Fatal("an encoding with the buckets' state is kept")
	}
	for i := range maxDecodedApps + 10 {
		other := *app
		other.AppID = "app_" + strconv.Itoa(i)
		if _, ok := FromMetadata(metadata.Pairs(other.AppendMetadata(nil)...)); !ok {
			t.Fatal("not decoded")
		}
	}
	if n := decodedApps.Len(); n > maxDecodedApps {
		t.Fatalf("%d principals kept, bound %d", n, maxDecodedApps)
	}
}
