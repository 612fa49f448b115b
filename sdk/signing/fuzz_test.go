package signing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// referenceCanonicalQuery is the spec's five steps written as plainly as
// possible, sharing no code with CanonicalQuery. Encoding uses the common
// Go rendering of encodeURIComponent: url.QueryEscape (which escapes every
// byte except letters, digits and - _ . ~, and writes space as '+'), then
// space as %20 and ! ' ( ) * back to raw.
func referenceCanonicalQuery(raw string) (string, error) {
	if raw == "" || raw == "?" {
		return "", nil
	}
	raw = strings.TrimPrefix(raw, "?")
	type kv struct{ k, v string }
	var pairs []kv
	for _, seg := range strings.Split(raw, "&") {
		if seg == "" {
			continue
		}
		k, v, _ := strings.Cut(seg, "=")
		dk, err := url.QueryUnescape(k)
		if err != nil {
			return "", err
		}
		dv, err := url.QueryUnescape(v)
		if err != nil {
			return "", err
		}
		pairs = append(pairs, kv{encodeURIComponent(dk), encodeURIComponent(dv)})
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].k != pairs[j].k {
			return pairs[i].k < pairs[j].k
		}
		return pairs[i].v < pairs[j].v
	})
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		parts[i] = p.k + "=" + p.v
	}
	return strings.Join(parts, "&"), nil
}

var jsFixups = strings.NewReplacer("+", "%20", "%21", "!", "%27", "'", "%28", "(", "%29", ")", "%2A", "*")

func encodeURIComponent(s string) string { return jsFixups.Replace(url.QueryEscape(s)) }

func FuzzCanonicalQuery(f *testing.F) {
	for _, s := range []string{
		"", "?", "??", "&", "=", "==", "a", "a=", "=a", "a=1&&b=2&", "?a=1",
		"status=SHIPPED&page=2&limit=20", "sort=Zeta&sort=(alpha)", "k=%20&k=!", "a-b=1&a=2",
		"q=hello+world", "q=a%2Bb", "q=a%2bb", "q=%2541", "q=%252B", "q=%", "q=%4", "q=%zz", "%g1=1",
		"q=%3A%2F%3F%23%5B%5D%40%24%26%2C%3B%3D", "q=a:b/c?d@e$f,g;h[i]", "q=!~*'()-_.",
		"q=%21%7E%2A%27%28%29", "q=café", "name=日本&q=%e2%82%ac", "q=%FF%fe", "q=\x00\x7f\xff",
		"a=b=c", "B=1&b=2&_=3&~=4&.=5", "tag=B&x=1&tag=(a&tag=A",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := CanonicalQuery(raw)
		want, refErr := referenceCanonicalQuery(raw)
		if (err != nil) != (refErr != nil) {
			t.Fatalf("CanonicalQuery(%q) error %v, reference error %v", raw, err, refErr)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidEscape) {
				t.Fatalf("CanonicalQuery(%q) error %v, want ErrInvalidEscape", raw, err)
			}
			return
		}
		if got != want {
			t.Fatalf("CanonicalQuery(%q)\n got %q\nwant %q", raw, got, want)
		}
		// The canonical form is a fixed point: canonicalizing it again
		// changes nothing, so a proxy that normalizes it cannot break it.
		again, err := CanonicalQuery(got)
		if err != nil || again != got {
			t.Fatalf("CanonicalQuery not idempotent on %q: %q, %v", got, again, err)
		}
	})
}

// FuzzSignVerify checks Sign against crypto/hmac directly, the round trip,
// and that changing any one character of a valid signature fails.
func FuzzSignVerify(f *testing.F) {
	f.Add([]byte(katSecret), katGETSTS, uint8(0), byte('0'))
	f.Add([]byte(katSecret), katPOSTSTS, uint8(63), byte('f'))
	f.Add([]byte(""), "", uint8(31), byte('A'))
	f.Add([]byte(strings.Repeat("k", 200)), "x", uint8(7), byte(0))
	f.Add([]byte(katUniSecret), katUniSTS, uint8(200), byte(0xff))
	f.Fuzz(func(t *testing.T, secret []byte, sts string, pos uint8, c byte) {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(sts))
		want := hex.EncodeToString(m.Sum(nil))

		sig := Sign(secret, sts)
		if sig != want {
			t.Fatalf("Sign = %s, crypto/hmac = %s", sig, want)
		}
		k := NewKey(secret)
		if k.Sign(sts) != want || !k.Verify(sts, sig) || !Verify(secret, sts, sig) {
			t.Fatal("round trip failed")
		}
		i := int(pos) % len(sig)
		if c == sig[i] {
			c ^= 0x01
		}
		bad := sig[:i] + string([]byte{c}) + sig[i+1:]
		if k.Verify(sts, bad) || Verify(secret, sts, bad) {
			t.Fatalf("signature changed at %d to %q still verifies", i, c)
		}
		if up := strings.ToUpper(sig); up != sig && k.Verify(sts, up) {
			t.Fatal("uppercase signature verifies")
		}
	})
}

// FuzzRequest signs arbitrary requests and checks the result against an
// HMAC over a signed string assembled independently from the reference
// canonicalization.
func FuzzRequest(f *testing.F) {
	f.Add("GET", "/open/v1/orders", "status=SHIPPED&limit=20&page=1", []byte(nil), katGETNonce)
	f.Add("post", "/open/v1/orders/bulk-cancel", "", []byte(katPOSTBody), katPOSTNonce)
	f.Add("GET", "/open/v1/products", katUniQuery, []byte{}, katUniNonce)
	f.Add("GET", "/p", "a=%zz", []byte(nil), "n")
	f.Fuzz(func(t *testing.T, method, path, rawQuery string, body []byte, nonce string) {
		r := Request{Timestamp: katTS, ClientID: katClientID, Method: method, Path: path, RawQuery: rawQuery, Body: body, Nonce: nonce}
		k := NewKey([]byte(katSecret))
		sig, err := k.SignRequest(&r)
		cq, refErr := referenceCanonicalQuery(rawQuery)
		if (err != nil) != (refErr != nil) {
			t.Fatalf("SignRequest error %v, reference error %v", err, refErr)
		}
		if err != nil {
			if m, verr := VerifyRequest(&r, sig, k); m != nil || !errors.Is(verr, ErrInvalidEscape) {
				t.Fatalf("VerifyRequest on invalid query = %v, %v", m, verr)
			}
			return
		}
		bodySum := sha256.Sum256(body)
		sts := strings.Join([]string{katTS, katClientID, asciiUpper(method), path, cq, hex.EncodeToString(bodySum[:]), nonce}, ":")
		if got, _ := r.StringToSign(); got != sts {
			t.Fatalf("StringToSign = %q, want %q", got, sts)
		}
		m := hmac.New(sha256.New, []byte(katSecret))
		m.Write([]byte(sts))
		if want := hex.EncodeToString(m.Sum(nil)); sig != want {
			t.Fatalf("SignRequest = %s, want %s", sig, want)
		}
		if ok, err := k.VerifyRequest(&r, sig); !ok || err != nil {
			t.Fatalf("VerifyRequest = %v, %v", ok, err)
		}
	})
}

// asciiUpper uppercases a-z only: HTTP methods are ASCII tokens, and
// strings.ToUpper would also rewrite invalid UTF-8 and non-ASCII letters.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}
