package signing

import (
	"bytes"
	"testing"
)

// benchRequests are a typical listing GET (three query pairs) and a POST with
// a 2 KB JSON body.
func benchRequests() (get, post Request) {
	get = Request{Timestamp: katTS, ClientID: katClientID, Method: "GET", Path: "/open/v1/orders",
		RawQuery: "status=SHIPPED&limit=20&page=1", Nonce: katGETNonce}
	body := []byte(`{"items":[` + string(bytes.Repeat([]byte(`{"sku":"SKU-0001","qty":1},`), 75)) + `{"sku":"SKU-9999","qty":1}]}`)
	post = Request{Timestamp: katTS, ClientID: katClientID, Method: "POST", Path: "/open/v1/products/bulk",
		Body: body, Nonce: katPOSTNonce}
	return get, post
}

func BenchmarkVerify(b *testing.B) {
	get, post := benchRequests()
	if len(post.Body) < 2000 || len(post.Body) > 2100 {
		b.Fatalf("POST body is %d bytes, want about 2 KB", len(post.Body))
	}
	k := NewKey([]byte(katSecret))
	for _, bc := range []struct {
		name string
		req  Request
	}{{"GET-3pairs", get}, {"POST-2KB", post}} {
		sig, err := k.SignRequest(&bc.req)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.req.Body)))
			for b.Loop() {
				if ok, _ := k.VerifyRequest(&bc.req, sig); !ok {
					b.Fatal("did not verify")
				}
			}
		})
		// The same check with a raw secret, deriving the key on every call,
		// shows what caching a Key per app saves.
		b.Run(bc.name+"-rawsecret", func(b *testing.B) {
			b.ReportAllocs()
			secret := []byte(katSecret)
			for b.Loop() {
				sts, _ := bc.req.StringToSign()
				if !Verify(secret, sts, sig) {
					b.Fatal("did not verify")
				}
			}
		})
	}
}

func BenchmarkSignRequest(b *testing.B) {
	get, _ := benchRequests()
	k := NewKey([]byte(katSecret))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k.SignRequest(&get); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCanonicalQuery(b *testing.B) {
	for _, bc := range []struct{ name, raw string }{
		{"3pairs", "status=SHIPPED&limit=20&page=1"},
		{"escapes", "q=caf%c3%a9+(new)&sort=%2Bprice&tag=Zeta&tag=(alpha)&updated_after=2025-01-01T00%3A00%3A00%2B08%3A00"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CanonicalQuery(bc.raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"-append", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 256)
			for b.Loop() {
				var err error
				if buf, err = AppendCanonicalQuery(buf[:0], bc.raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
