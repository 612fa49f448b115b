package webhooks_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

func send(t *testing.T, c *sdk.Client, method, path, body string) (int, string, string) {
	t.Helper()
	req := sdk.Request{Method: method, Path: path}
	if body != "" {
		req.Body = []byte(body)
	}
	r, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var e sdk.Envelope
	_ = json.Unmarshal(r.Body, &e)
	code := ""
	if e.Error != nil {
		code = e.Error.Code
	}
	return r.Status, code, string(r.Body)
}

// The routes as a partner calls them: app-owned (no seller headers), the
// secret shown on creation and rotation only, strict bodies, SSRF refusals.
func TestWebhookRoutes(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	full := env.Client(t, "full", -1)
	status, _, body := send(t, full, "POST", "/open/v1/webhooks", `{"eventType":"order.cancelled","callbackUrl":"https://hooks.partner.example/in"}`)
	var created struct {
		Data struct {
			ID, Secret, CallbackURL string
			EventType               string `json:"eventType"`
			IsActive                bool   `json:"isActive"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &created); status != 201 || err != nil || !strings.HasPrefix(created.Data.Secret, "whsec_") ||
		created.Data.EventType != "order.cancelled" || !created.Data.IsActive {
		t.Fatalf("create: %d %s", status, body)
	}
	id := created.Data.ID
	for _, path := range []string{"/open/v1/webhooks", "/open/v1/webhooks/" + id} {
		if status, _, body := send(t, full, "GET", path, ""); status != 200 || strings.Contains(body, "whsec_") || !strings.Contains(body, id) {
			t.Errorf("GET %s: %d %s", path, status, body)
		}
	}
	cases := []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"the same type and URL", "POST", "/open/v1/webhooks", `{"eventType":"order.cancelled","callbackUrl":"https://hooks.partner.example/in"}`, 409, "WEBHOOK_SUBSCRIPTION_EXISTS"},
		{"a type outside the catalogue", "POST", "/open/v1/webhooks", `{"eventType":"order.exploded","callbackUrl":"https://hooks.partner.example/x"}`, 400, "VALIDATION_ERROR"},
		{"no callback URL", "POST", "/open/v1/webhooks", `{"eventType":"order.created"}`, 400, "VALIDATION_ERROR"},
		{"a loopback callback", "POST", "/open/v1/webhooks", `{"eventType":"order.created","callbackUrl":"https://127.0.0.1/in"}`, 400, "VALIDATION_ERROR"},
		{"a metadata callback", "POST", "/open/v1/webhooks", `{"eventType":"order.created","callbackUrl":"https://169.254.169.254/latest"}`, 400, "VALIDATION_ERROR"},
		{"a host that does not resolve", "POST", "/open/v1/webhooks", `{"eventType":"order.created","callbackUrl":"https://nowhere.invalid/in"}`, 400, "VALIDATION_ERROR"},
		{"eventType on update", "PUT", "/open/v1/webhooks/" + id, `{"eventType":"order.created"}`, 400, "VALIDATION_ERROR"},
		{"an unknown id", "GET", "/open/v1/webhooks/whk_01kaq3m8v5yq6b7c9d0e1f2g3h", "", 404, "NOT_FOUND"},
	}
	for _, c := range cases {
		if status, code, body := send(t, full, c.method, c.path, c.body); status != c.status || code != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, status, body, c.status, c.code)
		}
	}
	// Scope by type: the limited app reads orders and the catalogue, and
	// may not see the full app's subscription.
	limited := env.Client(t, "limited", -1)
	if status, code, _ := send(t, limited, "GET", "/open/v1/webhooks/"+id, ""); status != 404 || code != "NOT_FOUND" {
		t.Errorf("another app's subscription: %d %s", status, code)
	}
	if status, _, body := send(t, full, "PUT", "/open/v1/webhooks/"+id, `{"isActive":false}`); status != 200 || !strings.Contains(body, `"isActive":false`) {
		t.Errorf("pause: %d %s", status, body)
	}
	// A paused subscription sends nothing, so a test is refused rather
	// than answered 202 with nothing ever sent.
	test := `{"subscriptionId":"` + id + `"}`
	if status, code, body := send(t, full, "POST", "/open/v1/webhooks/test", test); status != 409 || code != "CONFLICT" || !strings.Contains(body, "paused") {
		t.Errorf("a test on a paused subscription: %d %s", status, body)
	}
	// A replay too: its deliveries would be dropped while it is paused.
	replay := `{"since":"` + env.Clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339) + `"}`
	if status, code, body := send(t, full, "POST", "/open/v1/webhooks/"+id+"/replay", replay); status != 409 || code != "CONFLICT" || !strings.Contains(body, "paused") {
		t.Errorf("a replay on a paused subscription: %d %s", status, body)
	}
	if status, _, _ := send(t, full, "PUT", "/open/v1/webhooks/"+id, `{"isActive":true}`); status != 200 {
		t.Errorf("resume: %d", status)
	}
	if status, _, body := send(t, full, "POST", "/open/v1/webhooks/test", test); status != 202 || !strings.Contains(body, `"queued":1`) {
		t.Errorf("a test once resumed: %d %s", status, body)
	}
	if status, _, body := send(t, full, "POST", "/open/v1/webhooks/"+id+"/replay", replay); status != 202 || !strings.Contains(body, `"queued":`) {
		t.Errorf("a replay once resumed: %d %s", status, body)
	}
	if status, _, body := send(t, full, "POST", "/open/v1/webhooks/"+id+"/rotate-secret", ""); status != 200 || !strings.Contains(body, "whsec_") ||
		strings.Contains(body, created.Data.Secret) {
		t.Errorf("rotate: %d %s", status, body)
	}
	if status, _, body := send(t, full, "DELETE", "/open/v1/webhooks/"+id, ""); status != 200 || !strings.Contains(body, `"deleted":true`) {
		t.Errorf("delete: %d %s", status, body)
	}
	if status, _, _ := send(t, full, "GET", "/open/v1/webhooks/"+id, ""); status != 404 {
		t.Errorf("after delete: %d", status)
	}
}
