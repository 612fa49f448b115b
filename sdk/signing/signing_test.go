package signing

import (
	"errors"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
	"time"
)

// Known-answer vectors. The expected strings and digests were computed
// outside Go, with python3's hashlib/hmac and checked with openssl:
//
//	printf '%s' "$STS" | openssl dgst -sha256 -hmac "$SECRET"
//	printf '%s' "$BODY" | openssl dgst -sha256
const (
	emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

	katSecret   = "sk_test_5f1e0c7a9b3d4e2f8a6c"
	katClientID = "test_4f2a9c1d7e"
	katTS       = "1735689600"

	katGETNonce = "0123456789abcdef0123456789abcdef"
	katGETSTS   = "1735689600:test_4f2a9c1d7e:GET:/open/v1/orders:limit=20&page=1&status=SHIPPED:" + emptySHA256 + ":0123456789abcdef0123456789abcdef"
	katGETSig   = "48f178e566bf78e54696b10fae22113fa3ca94dd7eaf3b4fe04d2b2befc7564f"

	katPOSTBody     = `{"orderIds":["ord_01","ord_02"],"reason":"OUT_OF_STOCK"}`
	katPOSTBodyHash = "abf1cdd4a87d8bd803d5f0b61434935db794cae03d32d91d475bd9d05cdfd8bf"
	katPOSTNonce    = "fedcba9876543210fedcba9876543210fedcba98"
	katPOSTSTS      = "1735689600:test_4f2a9c1d7e:POST:/open/v1/orders/bulk-cancel::" + katPOSTBodyHash + ":fedcba9876543210fedcba9876543210fedcba98"
	katPOSTSig      = "e37e8ae574a5aa454046f39d3ccd5a80f1598418b4afc3be30988c7482e5082c"

	// A non-ASCII secret, a lowercase method and a query needing every
	// canonicalization step; the canonical query was produced by python3's
	// urllib.parse.unquote_to_bytes and quote(safe="-_.!~*'()").
	katUniSecret = "sëcret-ü"
	katUniQuery  = "sort=%2bprice&q=caf%c3%a9+%28new%29&tag=Zeta&tag=(alpha)&flag"
	katUniNonce  = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	katUniSTS    = "1735689600:test_4f2a9c1d7e:GET:/open/v1/products:flag=&q=caf%C3%A9%20(new)&sort=%2Bprice&tag=(alpha)&tag=Zeta:" + emptySHA256 + ":" + katUniNonce
	katUniSig    = "41b43a46db466c8f9455afc4a0e392c6dde2745a9694b45efbd7bbfbd310790b"
)

func katGET() Request {
	return Request{Timestamp: katTS, ClientID: katClientID, Method: "GET", Path: "/open/v1/orders",
		RawQuery: "status=SHIPPED&limit=20&page=1", Nonce: katGETNonce}
}

func katPOST() Request {
	return Request{Timestamp: katTS, ClientID: katClientID, Method: "POST", Path: "/open/v1/orders/bulk-cancel",
		Body: []byte(katPOSTBody), Nonce: katPOSTNonce}
}

func katUni() Request {
	return Request{Timestamp: katTS, ClientID: katClientID, Method: "get", Path: "/open/v1/products",
		RawQuery: katUniQuery, Nonce: katUniNonce}
}

func TestBodySHA256(t *testing.T) {
	if got := BodySHA256(nil); got != emptySHA256 {
		t.Errorf("BodySHA256(nil) = %s", got)
	}
	if got := BodySHA256([]byte{}); got != emptySHA256 {
		t.Errorf("BodySHA256(empty) = %s", got)
	}
	if got := BodySHA256([]byte(katPOSTBody)); got != katPOSTBodyHash {
		t.Errorf("BodySHA256(body) = %s, want %s", got, katPOSTBodyHash)
	}
}

func TestStringToSign(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"GET with query", katGET(), katGETSTS},
		{"POST without query keeps adjacent colons", katPOST(), katPOSTSTS},
		{"lowercase method uppercased, full canonicalization", katUni(), katUniSTS},
		{"lone question mark is no query", Request{Timestamp: "1", ClientID: "c", Method: "delete", Path: "/open/v1/webhooks/wh_1", RawQuery: "?", Nonce: "n"},
			"1:c:DELETE:/open/v1/webhooks/wh_1::" + emptySHA256 + ":n"},
		{"leading question mark in raw query", Request{Timestamp: "1", ClientID: "c", Method: "GET", Path: "/p", RawQuery: "?b=2&a=1", Nonce: "n"},
			"1:c:GET:/p:a=1&b=2:" + emptySHA256 + ":n"},
		{"path taken verbatim", Request{Timestamp: "1", ClientID: "c", Method: "GET", Path: "/open/v1/products/a%2Fb:x", Nonce: "n"},
			"1:c:GET:/open/v1/products/a%2Fb:x::" + emptySHA256 + ":n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.req.StringToSign()
			if err != nil || got != tc.want {
				t.Fatalf("StringToSign() = %q, %v\nwant %q", got, err, tc.want)
			}
			app, err := tc.req.AppendStringToSign([]byte("prefix|"))
			if err != nil || string(app) != "prefix|"+tc.want {
				t.Fatalf("AppendStringToSign() = %q, %v", app, err)
			}
			if n := strings.Count(got, ":") - strings.Count(tc.req.Path+tc.req.ClientID, ":"); n != 6 {
				t.Fatalf("signed string has %d field separators, want 6", n)
			}
		})
	}
	bad := Request{Timestamp: "1", ClientID: "c", Method: "GET", Path: "/p", RawQuery: "a=%zz", Nonce: "n"}
	if _, err := bad.StringToSign(); !errors.Is(err, ErrInvalidEscape) {
		t.Fatalf("StringToSign with invalid escape: err = %v", err)
	}
}

func TestSignKnownAnswers(t *testing.T) {
	tests := []struct {
		name, secret, sts, want string
	}{
		// RFC 4231, test case 2.
		{"rfc4231 case 2", "Jefe", "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{"GET", katSecret, katGETSTS, katGETSig},
		{"POST", katSecret, katPOSTSTS, katPOSTSig},
		{"unicode", katUniSecret, katUniSTS, katUniSig},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sign([]byte(tc.secret), tc.sts); got != tc.want {
				t.Fatalf("Sign = %s, want %s", got, tc.want)
			}
			k := NewKey([]byte(tc.secret))
			for i := 0; i < 3; i++ { // reused pooled state must give the same answer
				if got := k.Sign(tc.sts); got != tc.want {
					t.Fatalf("Key.Sign #%d = %s, want %s", i, got, tc.want)
				}
				if !k.Verify(tc.sts, tc.want) {
					t.Fatalf("Key.Verify #%d rejected the known answer", i)
				}
			}
			if !Verify([]byte(tc.secret), tc.sts, tc.want) {
				t.Fatal("Verify rejected the known answer")
			}
		})
	}
}

func TestSignRequestKnownAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		secret string
		req    Request
		want   string
	}{
		{"GET", katSecret, katGET(), katGETSig},
		{"POST", katSecret, katPOST(), katPOSTSig},
		{"unicode", katUniSecret, katUni(), katUniSig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := NewKey([]byte(tc.secret))
			got, err := k.SignRequest(&tc.req)
			if err != nil || got != tc.want {
				t.Fatalf("Key.SignRequest = %s, %v; want %s", got, err, tc.want)
			}
			ok, err := k.VerifyRequest(&tc.req, tc.want)
			if err != nil || !ok {
				t.Fatalf("Key.VerifyRequest = %v, %v", ok, err)
			}
		})
	}

	h, err := SignRequest(katClientID, []byte(katSecret), "GET", "/open/v1/orders", "page=1&status=SHIPPED&limit=20",
		nil, time.Unix(1735689600, 999_000_000), katGETNonce)
	if err != nil {
		t.Fatal(err)
	}
	want := Headers{PartnerID: katClientID, Timestamp: katTS, SignatureVersion: "3", Nonce: katGETNonce, Signature: katGETSig}
	if h != want {
		t.Fatalf("SignRequest = %+v\nwant %+v", h, want)
	}

	h, err = SignRequest(katClientID, []byte(katSecret), "GET", "/p", "", nil, time.Now(), "")
	if err != nil || !ValidNonce(h.Nonce) || len(h.Nonce) != 32 || !ValidSignatureFormat(h.Signature) {
		t.Fatalf("SignRequest with generated nonce = %+v, %v", h, err)
	}
	if _, err := SignRequest(katClientID, []byte(katSecret), "GET", "/p", "a=%", nil, time.Now(), ""); !errors.Is(err, ErrInvalidEscape) {
		t.Fatalf("SignRequest with invalid query: err = %v", err)
	}
}

func TestVerifyRejectsMalformedSignatures(t *testing.T) {
	k := NewKey([]byte(katSecret))
	for _, sig := range []string{
		"",
		strings.ToUpper(katGETSig), // uppercase hex
		katGETSig[:63],             // too short
		katGETSig + "0",            // too long
		" " + katGETSig[1:],        // whitespace
		katGETSig[:63] + "g",       // not hex
		"SPF45Wa/eOVGlrEPriIRP6PKlN1+rztP4E0rK+/HVk8=",     // base64 of the right digest
		"SPF45Wa_eOVGlrEPriIRP6PKlN1-rztP4E0rK-_HVk8",      // base64url of the right digest
		"48F178E566BF78E54696B10FAE22113FA3CA94DD7EAF3B4F", // truncated uppercase
	} {
		if ValidSignatureFormat(sig) {
			t.Errorf("ValidSignatureFormat(%q) = true", sig)
		}
		if k.Verify(katGETSTS, sig) || Verify([]byte(katSecret), katGETSTS, sig) {
			t.Errorf("Verify accepted %q", sig)
		}
		r := katGET()
		if m, err := VerifyRequest(&r, sig, k); m != nil || err != nil {
			t.Errorf("VerifyRequest(%q) = %v, %v", sig, m, err)
		}
	}
	if !ValidSignatureFormat(katGETSig) {
		t.Error("ValidSignatureFormat rejected a valid signature")
	}
	// A well-formed but wrong signature.
	if k.Verify(katGETSTS, katPOSTSig) {
		t.Error("Verify accepted another request's signature")
	}
	// The right signature under the wrong secret.
	if Verify([]byte(katSecret+"x"), katGETSTS, katGETSig) || Verify(nil, katGETSTS, katGETSig) {
		t.Error("Verify accepted a signature under another secret")
	}
}

func TestVerifyRequest(t *testing.T) {
	oldKey, newKey, other := NewKey([]byte(katSecret)), NewKey([]byte("sk_test_rotated")), NewKey([]byte("sk_other"))
	r := katGET()

	if m, err := VerifyRequest(&r, katGETSig, other, nil, oldKey, newKey); err != nil || m != oldKey {
		t.Fatalf("rotation: matched %p, err %v; want the old key %p", m, err, oldKey)
	}
	newSig, _ := newKey.SignRequest(&r)
	if m, _ := VerifyRequest(&r, newSig, oldKey, newKey); m != newKey {
		t.Fatalf("rotation: new signature matched %p, want %p", m, newKey)
	}
	if m, err := VerifyRequest(&r, katGETSig); m != nil || err != nil {
		t.Fatalf("no keys: %v, %v", m, err)
	}

	// Anything covered by the signature, changed, fails.
	mutations := map[string]func(*Request){
		"timestamp": func(r *Request) { r.Timestamp = "1735689601" },
		"client id": func(r *Request) { r.ClientID = "live_4f2a9c1d7e" },
		"method":    func(r *Request) { r.Method = "POST" },
		"path":      func(r *Request) { r.Path = "/open/v1/orders/" },
		"query":     func(r *Request) { r.RawQuery = "status=SHIPPED&limit=20&page=2" },
		"body":      func(r *Request) { r.Body = []byte(" ") },
		"nonce":     func(r *Request) { r.Nonce = "0123456789abcdef0123456789abcdee" },
	}
	for name, mutate := range mutations {
		m := katGET()
		mutate(&m)
		if ok, err := oldKey.VerifyRequest(&m, katGETSig); ok || err != nil {
			t.Errorf("changed %s still verifies (%v, %v)", name, ok, err)
		}
	}

	// Equivalent queries verify: order, '+' vs %20, hex case.
	for _, q := range []string{"?limit=20&page=1&status=SHIPPED", "page=1&status=SHIPPED&limit=20", "%6cimit=20&page=1&status=%53HIPPED"} {
		m := katGET()
		m.RawQuery = q
		if ok, err := oldKey.VerifyRequest(&m, katGETSig); !ok || err != nil {
			t.Errorf("equivalent query %q: %v, %v", q, ok, err)
		}
	}

	// A malformed query is an error whatever the signature.
	bad := katGET()
	bad.RawQuery = "status=%ZZ"
	for _, sig := range []string{katGETSig, "nothex"} {
		if m, err := VerifyRequest(&bad, sig, oldKey); m != nil || !errors.Is(err, ErrInvalidEscape) {
			t.Errorf("malformed query with signature %q: %v, %v", sig, m, err)
		}
	}
}

func TestValidNonce(t *testing.T) {
	for _, tc := range []struct {
		nonce string
		ok    bool
	}{
		{strings.Repeat("a", 32), true},
		{strings.Repeat("0", 33), true},
		{strings.Repeat("f", 64), true},
		{"0123456789abcdef0123456789abcdef", true},
		{strings.Repeat("a", 31), false},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"0123456789ABCDEF0123456789ABCDEF", false},
		{"0123456789abcdef0123456789abcdeg", false},
		{"0123456789abcdef-123456789abcdef", false},
		{"01234567-89ab-cdef-0123-456789abcdef", false}, // a UUID
	} {
		if got := ValidNonce(tc.nonce); got != tc.ok {
			t.Errorf("ValidNonce(%q) = %v, want %v", tc.nonce, got, tc.ok)
		}
	}
}

func TestNewNonce(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		n := NewNonce()
		if len(n) != 32 || !ValidNonce(n) {
			t.Fatalf("NewNonce() = %q", n)
		}
		if seen[n] {
			t.Fatalf("NewNonce repeated %q", n)
		}
		seen[n] = true
	}
}

func TestTimestamp(t *testing.T) {
	if got := FormatTimestamp(time.Date(2025, 1, 1, 8, 0, 0, 999_999_999, time.FixedZone("PHT", 8*3600))); got != "1735689600" {
		t.Errorf("FormatTimestamp = %s, want seconds 1735689600", got)
	}
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1735689600", 1735689600, true},
		{"0", 0, true},
		{"1735689600000", 1735689600000, true}, // milliseconds parse, then fail the window
		{"999999999999999999", 999999999999999999, true},
		{"9999999999999999999", 0, false},
		{"", 0, false},
		{"-1", 0, false},
		{"+1735689600", 0, false},
		{" 1735689600", 0, false},
		{"1735689600.5", 0, false},
		{"1.7e9", 0, false},
		{"0x10", 0, false},
	} {
		got, ok := ParseTimestamp(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseTimestamp(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestHeaders(t *testing.T) {
	for _, name := range []string{HeaderPartnerID, HeaderTimestamp, HeaderSignatureVersion, HeaderNonce, HeaderSignature, HeaderAccessToken, HeaderSellerID} {
		if c := textproto.CanonicalMIMEHeaderKey(name); c != name {
			t.Errorf("header %q is not in canonical form (%q)", name, c)
		}
	}
	h := http.Header{}
	h.Set(HeaderSignature, "stale")
	Headers{PartnerID: "p", Timestamp: "t", SignatureVersion: Version, Nonce: "n", Signature: "s"}.Set(h)
	for name, want := range map[string]string{HeaderPartnerID: "p", HeaderTimestamp: "t", HeaderSignatureVersion: "3", HeaderNonce: "n", HeaderSignature: "s"} {
		if got := h.Values(name); len(got) != 1 || got[0] != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

func TestVerifyRequestDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	k := NewKey([]byte(katSecret))
	get, post := katGET(), katPOST()
	allocs := testing.AllocsPerRun(200, func() {
		if ok, _ := k.VerifyRequest(&get, katGETSig); !ok {
			t.Fatal("GET did not verify")
		}
		if ok, _ := k.VerifyRequest(&post, katPOSTSig); !ok {
			t.Fatal("POST did not verify")
		}
	})
	if allocs != 0 {
		t.Errorf("VerifyRequest allocates %.1f times per run, want 0", allocs)
	}
}
