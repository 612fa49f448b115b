package sdk

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mallplatform/partnerapi/sdk/signing"
)

const sampleCredentials = `{"environment":"sandbox","base_url":"http://127.0.0.1:8080","grpc_address":"127.0.0.1:9090",
 "apps":{"full":{"client_id":"test_full","client_secret":"sk_full","scopes":["catalog:read","catalog:write","orders:read","orders:write","customer:email:read"]},
         "limited":{"client_id":"test_lim","client_secret":"sk_lim","scopes":["catalog:read","orders:read"]},
         "live":{"client_id":"live_1","client_secret":"sk_live","scopes":["catalog:read"]}},
 "sellers":[{"seller_id":"slr_a","tokens":{"full":{"access_token":"at_a_full","refresh_token":"rt_a_full"},"limited":{"access_token":"at_a_lim","refresh_token":"rt_a_lim"}}},
            {"seller_id":"slr_b","tokens":{"full":{"access_token":"at_b_full","refresh_token":"rt_b_full"}}}]}`

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sandbox-credentials.json")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadCredentials(t *testing.T) {
	c, err := LoadCredentials(writeFile(t, sampleCredentials))
	if err != nil {
		t.Fatal(err)
	}
	want := &Credentials{
		Environment: "sandbox", BaseURL: "http://127.0.0.1:8080", GRPCAddress: "127.0.0.1:9090",
		Apps: map[string]AppCredentials{
			AppFull:    {ClientID: "test_full", ClientSecret: "sk_full", Scopes: []string{"catalog:read", "catalog:write", "orders:read", "orders:write", "customer:email:read"}},
			AppLimited: {ClientID: "test_lim", ClientSecret: "sk_lim", Scopes: []string{"catalog:read", "orders:read"}},
			AppLive:    {ClientID: "live_1", ClientSecret: "sk_live", Scopes: []string{"catalog:read"}},
		},
		Sellers: []SellerCredentials{
			{SellerID: "slr_a", Tokens: map[string]TokenPair{AppFull: {"at_a_full", "rt_a_full"}, AppLimited: {"at_a_lim", "rt_a_lim"}}},
			{SellerID: "slr_b", Tokens: map[string]TokenPair{AppFull: {"at_b_full", "rt_b_full"}}},
		},
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("LoadCredentials =\n%+v\nwant\n%+v", c, want)
	}

	cfg, err := c.Config(AppLimited)
	if err != nil || cfg.BaseURL != "http://127.0.0.1:8080" || cfg.ClientID != "test_lim" || cfg.ClientSecret != "sk_lim" {
		t.Fatalf("Config = %+v, %v", cfg, err)
	}
	if id, tok, err := c.SellerToken(1, AppFull); err != nil || id != "slr_b" || tok != "at_b_full" {
		t.Fatalf("SellerToken = %s, %s, %v", id, tok, err)
	}
	for _, bad := range []struct {
		i   int
		app string
	}{{2, AppFull}, {-1, AppFull}, {1, AppLimited}, {0, AppLive}} {
		if _, _, err := c.SellerToken(bad.i, bad.app); err == nil {
			t.Errorf("SellerToken(%d, %s) returned no error", bad.i, bad.app)
		}
	}
	if _, err := c.Config("nope"); err == nil {
		t.Error("Config of an unknown app returned no error")
	}

	for _, content := range []string{"", "{", `{"apps":{"full":{}}}`, `{"base_url":"http://h"}`} {
		if _, err := LoadCredentials(writeFile(t, content)); err == nil {
			t.Errorf("LoadCredentials(%q) returned no error", content)
		}
	}
	if _, err := LoadCredentials(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("LoadCredentials of a missing file returned no error")
	}
}

func TestCredentialsSave(t *testing.T) {
	c, err := LoadCredentials(writeFile(t, sampleCredentials))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "data", "sandbox-credentials.json")
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("saved file mode %v, %v; want 0600", st.Mode(), err)
	}
	back, err := LoadCredentials(p)
	if err != nil || !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip = %+v, %v", back, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Fatalf("Save left %d files behind", len(entries))
	}
}

func TestCredentialsClient(t *testing.T) {
	g := newGateway(t)
	c, err := LoadCredentials(writeFile(t, sampleCredentials))
	if err != nil {
		t.Fatal(err)
	}
	c.BaseURL = g.URL
	c.Apps[AppFull] = AppCredentials{ClientID: testClientID, ClientSecret: testSecret}

	cl, err := c.Client(AppFull, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Do(context.Background(), "GET", "/open/v1/orders", nil); err != nil {
		t.Fatal(err)
	}
	s := g.last(t)
	if !s.verified || s.header.Get(signing.HeaderSellerID) != "slr_a" || s.header.Get(signing.HeaderAccessToken) != "at_a_full" {
		t.Fatalf("verified %v, headers %v", s.verified, s.header)
	}

	cl, err = c.Client(AppFull, -1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Do(context.Background(), "GET", "/open/v1/categories", nil); err != nil {
		t.Fatal(err)
	}
	if s := g.last(t); s.header.Get(signing.HeaderSellerID) != "" {
		t.Fatal("app-only client sent a seller id")
	}
	if _, err := c.Client(AppLive, 0); err == nil {
		t.Fatal("Client for a seller without a token for the app returned no error")
	}
}
