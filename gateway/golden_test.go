package gateway_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

var update = flag.Bool("update", false, "rewrite the golden files (review the diff against the spec before committing)")

// Golden bodies pin the wire format byte for byte: field names and order,
// null versus absent, integers, the envelope and meta.
func TestGoldenBodies(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", -1)
	cases := []struct {
		file string
		req  sdk.Request
	}{
		{"categories_first_page.json", sdk.Request{Method: "GET", Path: "/open/v1/categories", RawQuery: "limit=3"}},
		{"categories_attributes.json", sdk.Request{Method: "GET", Path: "/open/v1/categories/100003/attributes"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := send(t, full, c.req)
			path := filepath.Join("testdata", c.file)
			if *update {
				if err := os.WriteFile(path, append(r.Body, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(r.Body) + "\n"; got != string(want) {
				t.Fatalf("%s differs\n got %s\nwant %s", c.file, got, want)
			}
		})
	}
}
