package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/sdk"
)

var (
	rotate      = sdk.Request{Method: http.MethodPost, Path: "/open/v1/credentials/rotate"}
	credentials = sdk.Request{Method: http.MethodGet, Path: "/open/v1/credentials"}
	usage       = sdk.Request{Method: http.MethodGet, Path: "/open/v1/usage"}
)

// rotation is the data of a rotate answer.
type rotation struct {
	ClientSecret            string `json:"client_secret"`
	PreviousSecretExpiresAt string `json:"previous_secret_expires_at"`
}

// rotateSecret rotates c's secret through the gateway c calls and returns
// the answer's data; the answer must be 200 with exactly the two fields.
func rotateSecret(t *testing.T, c *sdk.Client) rotation {
	t.Helper()
	r := send(t, c, rotate)
	if r.Status != http.StatusOK {
		t.Fatalf("rotate: %d %s", r.Status, r.Body)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("the answer holding the secret has Cache-Control %q, want no-store", cc)
	}
	var env struct {
		Success bool
		Data    map[string]any
	}
	if err := json.Unmarshal(r.Body, &env); err != nil || !env.Success || len(env.Data) != 2 {
		t.Fatalf("rotate answer: %s", r.Body)
	}
	var data struct{ Data rotation }
	if err := json.Unmarshal(r.Body, &data); err != nil || data.Data.ClientSecret == "" || data.Data.PreviousSecretExpiresAt == "" {
		t.Fatalf("rotate answer: %s", r.Body)
	}
	return data.Data
}

// describe reads GET /open/v1/credentials through c; the answer must never
// carry any of secrets.
func describe(t *testing.T, c *sdk.Client, secrets ...string) map[string]any {
	t.Helper()
	r := send(t, c, credentials)
	if r.Status != http.StatusOK {
		t.Fatalf("credentials: %d %s", r.Status, r.Body)
	}
	for _, s := range secrets {
		if bytes.Contains(r.Body, []byte(s)) {
			t.Fatalf("GET /open/v1/credentials carries a secret: %s", r.Body)
		}
	}
	var env struct{ Data map[string]any }
	if err := json.Unmarshal(r.Body, &env); err != nil {
		t.Fatal(err)
	}
	for k := range env.Data {
		switch k {
		case "client_id", "environment", "secret_created_at", "previous_secret_expires_at":
		default:
			t.Fatalf("GET /open/v1/credentials has member %q: %s", k, r.Body)
		}
	}
	return env.Data
}

// clientAt signs as the full app with secret, against the gateway at base.
func clientAt(t *testing.T, env *testenv.Env, base, secret string) *sdk.Client {
	t.Helper()
	c, err := sdk.New(sdk.Config{BaseURL: base, ClientID: env.Creds.Apps["full"].ClientID, ClientSecret: secret, Now: env.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func expectOK(t *testing.T, what string, r *sdk.Response) {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
}

func wireTime(tm time.Time) string { return tm.UTC().Format(wirejson.TimeLayout) }

// A partner rotates its secret through one gateway: the new secret verifies
// at once on that gateway and on another replica whose cache still holds
// the old one, the old secret verifies on both until it expires (24 h by
// default) and then answers 401 INVALID_SIGNATURE; GET /open/v1/credentials
// follows along and never carries a secret.
func TestPartnerSecretRotation(t *testing.T) {
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg})
			other := env.AnotherGateway(t)
			oldSecret := env.Creds.Apps["full"].ClientSecret
			oldA, oldB := clientAt(t, env, env.BaseURL, oldSecret), clientAt(t, env, other, oldSecret)
			// Both gateways cache the app with its one secret.
			expectOK(t, "old secret, gateway A, before", send(t, oldA, usage))
			expectOK(t, "old secret, gateway B, before", send(t, oldB, usage))
			before := describe(t, oldA, oldSecret)
			if before["client_id"] != env.Creds.Apps["full"].ClientID || before["environment"] != "sandbox" || before["secret_created_at"] == nil {
				t.Fatalf("credentials before rotation: %v", before)
			}
			if _, ok := before["previous_secret_expires_at"]; ok {
				t.Fatalf("previous_secret_expires_at without a previous secret: %v", before)
			}

			rotatedAt := env.Clock.Now()
			rot := rotateSecret(t, oldA)
			if rot.ClientSecret == oldSecret {
				t.Fatal("rotation returned the old secret")
			}
			if want := wireTime(rotatedAt.Add(24 * time.Hour)); rot.PreviousSecretExpiresAt != want {
				t.Fatalf("previous_secret_expires_at %s, want %s (24 h)", rot.PreviousSecretExpiresAt, want)
			}
			newA, newB := clientAt(t, env, env.BaseURL, rot.ClientSecret), clientAt(t, env, other, rot.ClientSecret)
			expectOK(t, "new secret at once, gateway A", send(t, newA, usage))
			expectOK(t, "new secret at once, gateway B (cache warm with the old one)", send(t, newB, usage))
			expectOK(t, "old secret during the overlap, gateway A", send(t, oldA, usage))
			expectOK(t, "old secret during the overlap, gateway B", send(t, oldB, usage))

			during := describe(t, newB, oldSecret, rot.ClientSecret)
			if during["secret_created_at"] != wireTime(rotatedAt) || during["previous_secret_expires_at"] != rot.PreviousSecretExpiresAt {
				t.Fatalf("credentials during the overlap: %v, want secret_created_at %s and previous_secret_expires_at %s", during, wireTime(rotatedAt), rot.PreviousSecretExpiresAt)
			}

			env.Clock.Advance(24*time.Hour - time.Second)
			expectOK(t, "old secret a second before it expires, gateway A", send(t, oldA, usage))
			expectOK(t, "old secret a second before it expires, gateway B", send(t, oldB, usage))
			env.Clock.Advance(time.Second)
			expectError(t, send(t, oldA, usage), 401, "INVALID_SIGNATURE")
			expectError(t, send(t, oldB, usage), 401, "INVALID_SIGNATURE")
			expectOK(t, "new secret after the overlap, gateway A", send(t, newA, usage))
			expectOK(t, "new secret after the overlap, gateway B", send(t, newB, usage))
			after := describe(t, newA, oldSecret, rot.ClientSecret)
			if _, ok := after["previous_secret_expires_at"]; ok || after["secret_created_at"] != wireTime(rotatedAt) {
				t.Fatalf("credentials after the overlap: %v", after)
			}
		})
	}
}

// A second rotation inside the overlap ends the oldest secret: only the
// current and the previous secret ever verify.
func TestSecondRotationEndsTheOldestSecret(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	other := env.AnotherGateway(t)
	s0 := env.Creds.Apps["full"].ClientSecret
	expectOK(t, "s0 on B", send(t, clientAt(t, env, other, s0), usage))

	s1 := rotateSecret(t, clientAt(t, env, env.BaseURL, s0)).ClientSecret
	env.Clock.Advance(time.Second)
	expectOK(t, "s1 on B", send(t, clientAt(t, env, other, s1), usage))
	env.Clock.Advance(time.Hour)
	rot := rotateSecret(t, clientAt(t, env, env.BaseURL, s1))
	if want := wireTime(env.Clock.Now().Add(24 * time.Hour)); rot.PreviousSecretExpiresAt != want {
		t.Fatalf("second rotation: previous_secret_expires_at %s, want %s", rot.PreviousSecretExpiresAt, want)
	}
	s2 := rot.ClientSecret
	for _, base := range []string{env.BaseURL, other} {
		expectOK(t, "s2 on "+base, send(t, clientAt(t, env, base, s2), usage))
		expectOK(t, "s1 on "+base, send(t, clientAt(t, env, base, s1), usage))
		expectError(t, send(t, clientAt(t, env, base, s0), usage), 401, "INVALID_SIGNATURE")
	}
	d := describe(t, clientAt(t, env, env.BaseURL, s2), s0, s1, s2)
	if d["previous_secret_expires_at"] != rot.PreviousSecretExpiresAt {
		t.Fatalf("credentials after the second rotation: %v", d)
	}
}

// The overlap is core's setting (MP_SECRET_ROTATION_OVERLAP).
func TestRotationOverlapIsConfigurable(t *testing.T) {
	env := testenv.Start(t, testenv.Options{SecretRotationOverlap: 10 * time.Minute})
	old := env.Client(t, "full", -1)
	rot := rotateSecret(t, old)
	if want := wireTime(env.Clock.Now().Add(10 * time.Minute)); rot.PreviousSecretExpiresAt != want {
		t.Fatalf("previous_secret_expires_at %s, want %s", rot.PreviousSecretExpiresAt, want)
	}
	env.Clock.Advance(10 * time.Minute)
	expectError(t, send(t, old, usage), 401, "INVALID_SIGNATURE")
	expectOK(t, "new secret", send(t, clientAt(t, env, env.BaseURL, rot.ClientSecret), usage))
}

// Rotation does not honour Idempotency-Key: the idempotency store keeps
// answers, and this one holds a secret. The same key twice rotates twice.
func TestRotationIgnoresIdempotencyKey(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	req := rotate
	req.ExtraHeaders = http.Header{sdk.HeaderIdempotencyKey: {"rotate-once-please"}}
	r1 := send(t, env.Client(t, "full", -1), req)
	expectOK(t, "first rotation", r1)
	var first struct{ Data rotation }
	if err := json.Unmarshal(r1.Body, &first); err != nil {
		t.Fatal(err)
	}
	r2 := send(t, clientAt(t, env, env.BaseURL, first.Data.ClientSecret), req)
	expectOK(t, "second rotation, same key", r2)
	if bytes.Equal(r1.Body, r2.Body) || r2.Header.Get(sdk.HeaderIdempotentReplayed) != "" {
		t.Fatalf("the second rotation was a replay: %s", r2.Body)
	}
	if n, err := env.DB.Ent.IdempotencyKey.Query().Count(context.Background()); err != nil || n != 0 {
		t.Fatalf("%d idempotency rows kept (%v), want none", n, err)
	}
}

// Forged signatures under a real client id cost core at most one credential
// lookup per app per interval on each gateway.
func TestSignatureMismatchRefetchIsBounded(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	var lookups atomic.Int64
	count := grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if method == credentialsv1.CredentialService_GetAppCredentials_FullMethodName {
			lookups.Add(1)
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	})
	base := env.AnotherGateway(t, count)
	expectOK(t, "warm", send(t, clientAt(t, env, base, env.Creds.Apps["full"].ClientSecret), usage))
	if n := lookups.Load(); n != 1 {
		t.Fatalf("%d lookups to warm the cache, want 1", n)
	}
	forged := clientAt(t, env, base, strings.Repeat("f", 43))
	for range 20 {
		expectError(t, send(t, forged, usage), 401, "INVALID_SIGNATURE")
	}
	if n := lookups.Load(); n != 2 {
		t.Fatalf("%d lookups after 20 forged signatures, want 2 (one re-fetch)", n)
	}
	env.Clock.Advance(time.Second)
	expectError(t, send(t, forged, usage), 401, "INVALID_SIGNATURE")
	expectError(t, send(t, forged, usage), 401, "INVALID_SIGNATURE")
	if n := lookups.Load(); n != 3 {
		t.Fatalf("%d lookups a second later, want 3", n)
	}

	// Forged signatures at once share one re-fetch.
	env.Clock.Advance(time.Second)
	var wg sync.WaitGroup
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := forged.DoSigned(ctx, usage)
			if err != nil || r.Status != http.StatusUnauthorized {
				t.Errorf("concurrent forged signature: %v %v", r, err)
			}
		}()
	}
	wg.Wait()
	if n := lookups.Load(); n != 4 {
		t.Fatalf("%d lookups after 30 concurrent forged signatures, want 4", n)
	}

	// The gateway that relays a rotation forgets the app before answering:
	// its next request of the app asks core again, whatever secret signs it.
	rot := rotateSecret(t, clientAt(t, env, base, env.Creds.Apps["full"].ClientSecret))
	before := lookups.Load()
	expectOK(t, "old secret after the rotation", send(t, clientAt(t, env, base, env.Creds.Apps["full"].ClientSecret), usage))
	expectOK(t, "new secret after the rotation", send(t, clientAt(t, env, base, rot.ClientSecret), usage))
	if n := lookups.Load() - before; n != 1 {
		t.Fatalf("%d lookups after the relayed rotation, want 1 (the entry dropped, then cached)", n)
	}
}
