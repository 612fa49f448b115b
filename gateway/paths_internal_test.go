package gateway

import "testing"

func TestCanonicalPath(t *testing.T) {
	for p, want := range map[string]bool{
		"/open/v1/orders":         true,
		"/open/v1/orders/ord_1":   true,
		"/open/v1/orders/":        true, // trailing slash: the router's 404
		"/":                       true,
		"/open/v1/orders/..x":     true,
		"/open/v1/orders/.x":      true,
		"":                        false,
		"*":                       false,
		"open/v1/orders":          false,
		"//open/v1/orders":        false,
		"/open/v1//orders":        false,
		"/open/v1/./orders":       false,
		"/open/v1/../v1/orders":   false,
		"/open/v1/orders/..":      false,
		"/open/v1/orders/.":       false,
		"/open/v1/orders/../":     false,
		"/./open/v1/orders":       false,
		"/open/v1/orders//ord_1/": false,
	} {
		if got := canonicalPath(p); got != want {
			t.Errorf("canonicalPath(%q) = %v, want %v", p, got, want)
		}
	}
}
