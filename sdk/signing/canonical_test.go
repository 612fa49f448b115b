package signing

import (
	"errors"
	"testing"
)

func TestCanonicalQuery(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		// Step 1: empty query and lone question mark.
		{"empty", "", ""},
		{"lone question mark", "?", ""},
		{"leading question mark stripped", "?page=1&limit=5", "limit=5&page=1"},
		{"only one question mark stripped", "??a=1", "%3Fa=1"},

		// Step 4: keys in ascending ASCII order, whatever order they came in.
		{"keys sorted", "status=SHIPPED&page=2&limit=20", "limit=20&page=2&status=SHIPPED"},
		{"keys sorted other order", "page=2&limit=20&status=SHIPPED", "limit=20&page=2&status=SHIPPED"},
		{"uppercase keys before lowercase", "b=1&B=2", "B=2&b=1"},
		{"key prefix sorts first", "a-b=1&a=2", "a=2&a-b=1"},
		{"repeated key, paren before uppercase", "sort=Zeta&sort=(alpha)", "sort=(alpha)&sort=Zeta"},
		{"repeated key, paren before uppercase among others", "tag=B&x=1&tag=(a&tag=A", "tag=(a&tag=A&tag=B&x=1"},
		{"repeated identical pairs kept", "a=1&a=1", "a=1&a=1"},
		{"values compared in encoded form", "k=%20&k=!", "k=!&k=%20"},

		// Step 2: splitting.
		{"key without equals has empty value", "flag", "flag="},
		{"key without equals sorted with others", "b&a=1", "a=1&b="},
		{"empty value", "a=&b=2", "a=&b=2"},
		{"split on first equals only", "a=b=c", "a=b%3Dc"},
		{"empty segments skipped", "a=1&&b=2&", "a=1&b=2"},
		{"only separators", "&&", ""},
		{"empty key kept", "=x&a=1", "=x&a=1"},

		// Step 3: decode once, re-encode like encodeURIComponent.
		{"plus is space", "q=hello+world", "q=hello%20world"},
		{"plus in key is space", "a+b=1", "a%20b=1"},
		{"encoded space", "q=hello%20world", "q=hello%20world"},
		{"encoded plus stays encoded", "q=a%2Bb", "q=a%2Bb"},
		{"lowercase hex normalised", "q=a%2bb", "q=a%2Bb"},
		{"decode once", "q=%2541", "q=%2541"},
		{"decode once plus", "q=%252B", "q=%252B"},
		{"reserved encoded stay encoded", "q=%3A%2F%3F%23%5B%5D%40%24%26%2C%3B%3D", "q=%3A%2F%3F%23%5B%5D%40%24%26%2C%3B%3D"},
		{"raw reserved get encoded", "q=a:b/c?d@e$f,g;h[i]", "q=a%3Ab%2Fc%3Fd%40e%24f%2Cg%3Bh%5Bi%5D"},
		{"unreserved marks stay raw", "q=!~*'()-_.", "q=!~*'()-_."},
		{"encoded unreserved marks decoded", "q=%21%7E%2A%27%28%29%2D%5F%2E%41", "q=!~*'()-_.A"},
		{"raw unicode to utf-8", "q=café", "q=caf%C3%A9"},
		{"encoded unicode", "q=%e2%82%ac&name=日本", "name=%E6%97%A5%E6%9C%AC&q=%E2%82%AC"},
		{"raw space and quote", "q=a b\"", "q=a%20b%22"},
		{"invalid utf-8 kept bytewise", "q=%FF%fe", "q=%FF%FE"},
		{"hash is an ordinary byte", "q=a#b", "q=a%23b"},
		{"encoded ampersand inside value", "q=a%26b&p=1", "p=1&q=a%26b"},
		{"digits and letters raw", "AZaz09=AZaz09", "AZaz09=AZaz09"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CanonicalQuery(tc.raw)
			if err != nil {
				t.Fatalf("CanonicalQuery(%q) error %v", tc.raw, err)
			}
			if got != tc.want {
				t.Fatalf("CanonicalQuery(%q) = %q, want %q", tc.raw, got, tc.want)
			}
			app, err := AppendCanonicalQuery([]byte("x:"), tc.raw)
			if err != nil || string(app) != "x:"+tc.want {
				t.Fatalf("AppendCanonicalQuery(%q) = %q, %v", tc.raw, app, err)
			}
		})
	}
}

func TestCanonicalQueryInvalidEscape(t *testing.T) {
	for _, raw := range []string{"a=%", "a=%4", "a=%zz", "a=%4g", "%g1=1", "a=1&b=%2", "a=100%", "%=1"} {
		got, err := CanonicalQuery(raw)
		if !errors.Is(err, ErrInvalidEscape) || got != "" {
			t.Errorf("CanonicalQuery(%q) = %q, %v; want ErrInvalidEscape", raw, got, err)
		}
		dst := []byte("keep")
		app, err := AppendCanonicalQuery(dst, raw)
		if !errors.Is(err, ErrInvalidEscape) || string(app) != "keep" {
			t.Errorf("AppendCanonicalQuery(%q) = %q, %v; want dst unchanged and ErrInvalidEscape", raw, app, err)
		}
	}
}
