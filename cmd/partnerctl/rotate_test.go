package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// rotate-secret rotates the app's secret on the platform and writes the new
// one into the credential file it read, without printing it; the file then
// signs requests that verify, and the app's other entries are untouched.
func TestRotateSecretUpdatesTheCredentialFile(t *testing.T) {
	clearEnv(t)
	env := testenv.Start(t, testenv.Options{})
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := env.Creds.Save(path); err != nil {
		t.Fatal(err)
	}
	old := env.Creds.Apps["full"].ClientSecret

	code, out, errOut := runCLI(t, "", "--credentials", path, "rotate-secret")
	if code != exitOK {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	after, err := sdk.LoadCredentials(path)
	if err != nil {
		t.Fatal(err)
	}
	secret := after.Apps["full"].ClientSecret
	if secret == old || secret == "" {
		t.Fatal("the file still holds the old secret")
	}
	if strings.Contains(out+errOut, secret) || strings.Contains(out+errOut, old) {
		t.Fatalf("a secret was printed:\n%s%s", out, errOut)
	}
	if !strings.Contains(out, "previous secret verifies until") {
		t.Fatalf("stdout: %s", out)
	}
	if after.Apps["limited"].ClientSecret != env.Creds.Apps["limited"].ClientSecret || after.Apps["full"].ClientID != env.Creds.Apps["full"].ClientID ||
		len(after.Sellers) != len(env.Creds.Sellers) {
		t.Fatal("other entries of the file changed")
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v (%v), want 0600", info.Mode().Perm(), err)
	}

	// The file's secret verifies, on the next command as on any client.
	if code, out, errOut := runCLI(t, "", "--credentials", path, "--no-seller", "GET", "/open/v1/credentials"); code != exitOK || strings.Contains(out, secret) {
		t.Fatalf("GET /open/v1/credentials with the new file: exit %d\n%s%s", code, out, errOut)
	}
	cfg, err := after.Config("full")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Now = env.Clock.Now
	c, err := sdk.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := c.DoSigned(t.Context(), sdk.Request{Method: http.MethodGet, Path: "/open/v1/usage"}); err != nil || r.Status != http.StatusOK {
		t.Fatalf("the new secret: %v %v", r, err)
	}
}

func TestRotateSecretUsage(t *testing.T) {
	clearEnv(t)
	for _, args := range [][]string{
		{"rotate-secret", "extra"},
		{"--print-curl", "rotate-secret"},
		{"--field", "data.client_secret", "rotate-secret"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	t.Setenv("PARTNER_CLIENT_ID", "test_env")
	t.Setenv("PARTNER_CLIENT_SECRET", "sk_env")
	if code, _, errOut := runCLI(t, "", "rotate-secret"); code != exitUsage || !strings.Contains(errOut, "credential file") {
		t.Errorf("with environment credentials: exit %d %s", code, errOut)
	}
}
