package gateway

import (
	"net/url"
	"testing"
)

func TestPublicURLIsAnOrigin(t *testing.T) {
	for _, ok := range []string{"", "https://api.mall.example", "https://api.mall.example/", "http://127.0.0.1:8080"} {
		if _, err := parsePublicURL(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"api.mall.example", "ftp://api.mall.example", "https://api.mall.example/open", "https://u:p@api.mall.example",
		"https://api.mall.example?x=1", "https://api.mall.example#f", "https://"} {
		if _, err := parsePublicURL(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

func TestAbsoluteOnStaysOnTheOrigin(t *testing.T) {
	base := &url.URL{Scheme: "https", Host: "api.mall.example"}
	for in, want := range map[string]string{
		"/open/v1/auth/consent?session=a%2Bb": "https://api.mall.example/open/v1/auth/consent?session=a%2Bb",
		"https://api.mall.example/x":          "https://api.mall.example/x",
	} {
		if got, err := absoluteOn(base, in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"https://elsewhere.example/x", "//elsewhere.example/x", "http://api.mall.example/x"} {
		if got, err := absoluteOn(base, bad); err == nil {
			t.Errorf("%q was made %q", bad, got)
		}
	}
}

func TestSignInUsername(t *testing.T) {
	for body, want := range map[string]string{
		`{"username":"  Shop@Example.PH "}`: "shop@example.ph",
		`{"Username":"shop"}`:               "", // core reads "username" alone
		`{"session":"s"}`:                   "",
		`{"username":42}`:                   "",
		`not json`:                          "",
		``:                                  "",
	} {
		if got := signInUsername([]byte(body), "username"); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
	// The console's sign-in names the person by email address.
	if got := signInUsername([]byte(`{"email":" Dev@Example.PH","username":"x"}`), "email"); got != "dev@example.ph" {
		t.Errorf("email member: %q", got)
	}
}

func TestValidCookieValue(t *testing.T) {
	for v, want := range map[string]bool{"cs_Abc-1.2~x": true, "": false, "a b": false, `a"b`: false, "a;b": false, "a,b": false, "a\\b": false, "é": false} {
		if validCookieValue(v) != want {
			t.Errorf("%q: %v", v, !want)
		}
	}
}
