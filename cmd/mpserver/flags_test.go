package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"

	"github.com/mallplatform/partnerapi/gateway"
	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
)

// TestHelpNeverShowsSecrets: flag defaults come from the environment, and
// -h of every role prints them; tokens, keys and database passwords set
// there never appear.
func TestHelpNeverShowsSecrets(t *testing.T) {
	const (
		token = "gw-token-5f0c1d2e3a4b"
		key   = "c2VhbGluZy1rZXktZm9yLXRlc3Rz"
		dbPW  = "db-pass-9a8b7c"
	)
	t.Setenv("MP_GATEWAY_TOKEN", token)
	t.Setenv("MP_SECRET_KEY", key)
	t.Setenv("MP_DATABASE_URL", "postgres://core:"+dbPW+"@db.example.ph:5432/partner")
	for _, role := range [][]string{{"gateway"}, {"core"}, {"migrate"}, {"admin", "create-app"}} {
		var help strings.Builder
		if err := run(context.Background(), append(role, "-h"), &help, &help); err == nil {
			t.Fatalf("%s -h did not stop", role)
		}
		out := help.String()
		for _, secret := range []string{token, key, dbPW} {
			if strings.Contains(out, secret) {
				t.Errorf("%s -h shows a secret: %s", role, out)
			}
		}
	}
}

// TestMalformedEnvironmentRefusesToStart: a value the flag cannot read is an
// error at start-up, not a silent fall back to the default.
func TestMalformedEnvironmentRefusesToStart(t *testing.T) {
	for env, value := range map[string]string{
		"MP_TIMESTAMP_WINDOW":        "90",
		"MP_APP_RATE_PER_MINUTE":     "lots",
		"MP_CONSOLE_RATE_PER_MINUTE": "lots",
	} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, value)
			var stderr strings.Builder
			err := run(context.Background(), []string{"gateway", "--gateway-token", "flags-test-gateway-token"}, &stderr, &stderr)
			if err == nil || !strings.Contains(err.Error(), env) {
				t.Fatalf("started with %s=%s: %v", env, value, err)
			}
		})
	}
}

// Every ceiling of the gateway role reaches the gateway's config, from its
// flag or its MP_ variable (docs/operations.md's configuration table), the
// developer console's per-account limit among them.
func TestGatewayCeilingsReachTheGateway(t *testing.T) {
	t.Setenv("MP_CONSOLE_RATE_PER_MINUTE", "120")
	t.Setenv("MP_IP_RATE_PER_MINUTE", "900")
	var gf gatewayFlags
	fs := newFlagSet("gateway", io.Discard)
	gf.register(fs)
	if err := fs.Parse([]string{"--app-rate-per-minute", "70", "--account-rate-per-minute", "80", "--sandbox-rate-per-minute", "9"}); err != nil {
		t.Fatal(err)
	}
	var c gateway.Config
	gf.ceilings(&c)
	want := gateway.Config{ConsolePerMinute: 120, IPLimit: iplimit.Config{RatePerMinute: 900},
		Limits: admission.Limits{AppPerMinute: 70, AccountPerMinute: 80, SandboxPerMinute: 9}}
	if c.ConsolePerMinute != want.ConsolePerMinute || c.IPLimit != want.IPLimit || c.Limits != want.Limits {
		t.Fatalf("ceilings = console %d, %+v, %+v; want console %d, %+v, %+v", c.ConsolePerMinute, c.IPLimit, c.Limits,
			want.ConsolePerMinute, want.IPLimit, want.Limits)
	}
	if err := fs.Parse([]string{"--console-rate-per-minute", "45"}); err != nil {
		t.Fatal(err)
	}
	gf.ceilings(&c)
	if c.ConsolePerMinute != 45 {
		t.Fatalf("--console-rate-per-minute 45 gave %d", c.ConsolePerMinute)
	}
}

// Production roles log JSON with ISO-8601 timestamps in UTC.
func TestJSONLogTimestampsAreISO8601(t *testing.T) {
	enc := zapcore.NewJSONEncoder(jsonEncoderConfig())
	at := time.Date(2026, 11, 24, 18, 47, 18, 123_000_000, time.FixedZone("PHT", 8*3600))
	buf, err := enc.EncodeEntry(zapcore.Entry{Level: zapcore.InfoLevel, Time: at, Message: "request"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var line struct {
		TS string `json:"ts"`
	}
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, buf)
	}
	if line.TS != "2026-11-24T10:47:18.123Z" {
		t.Fatalf("ts = %q, want 2026-11-24T10:47:18.123Z", line.TS)
	}
}
