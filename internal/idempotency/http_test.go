package idempotency_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/mallplatform/partnerapi/ent/idempotencykey"
	"github.com/mallplatform/partnerapi/ent/productvariant"
	"github.com/mallplatform/partnerapi/internal/idempotency"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/catalog"
)

func productBody(sku string) []byte {
	return []byte(`{"title":"Acme Pan 24cm","description":"Cast iron","category":"` + catalog.CookwareCategoryID + `",` +
		`"images":["https://img.example.ph/x1.jpg"],"weight":1,"length":1,"width":1,"height":1,` +
		`"attribute_values":[{"attribute_id":"` + catalog.AttrCookwareMaterial + `","value":"Cast iron"}],` +
		`"variants":[{"sku":"` + sku + `","price":100,"stock":1}]}`)
}

func post(t testing.TB, c *sdk.Client, path, key string, body []byte) *sdk.Response {
	t.Helper()
	req := sdk.Request{Method: "POST", Path: path, Body: body}
	if key != "" {
		req.ExtraHeaders = http.Header{"Idempotency-Key": {key}}
	}
	r, err := c.DoSigned(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func errorCode(t testing.TB, r *sdk.Response) string {
	t.Helper()
	var e sdk.Envelope
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error == nil {
		return ""
	}
	return e.Error.Code
}

func countProducts(t testing.TB, env *testenv.Env, sku string) int {
	t.Helper()
	n, err := env.DB.Ent.ProductVariant.Query().Where(productvariant.Sku(sku)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func keysStored(t testing.TB, env *testenv.Env, key string) int {
	t.Helper()
	n, err := env.DB.Ent.IdempotencyKey.Query().Where(idempotencykey.Key(key)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A repeat with the same key gets the first answer byte for byte, marked
// Idempotent-Replayed, and creates nothing; the same key with another body
// is IDEMPOTENCY_KEY_REUSED.
func TestCreateProductReplaysTheFirstAnswer(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	c := env.Client(t, "full", 0)
	body := productBody("IDEM-1")
	first := post(t, c, "/open/v1/products", "create-1", body)
	if first.Status != http.StatusCreated {
		t.Fatalf("first: %d %s", first.Status, first.Body)
	}
	if h := first.Header.Get("Idempotent-Replayed"); h != "" {
		t.Errorf("first answer carries Idempotent-Replayed: %q", h)
	}
	second := post(t, c, "/open/v1/products", "create-1", body)
	if second.Status != http.StatusCreated || !bytes.Equal(second.Body, first.Body) {
		t.Errorf("replay: %d %s, want 201 %s", second.Status, second.Body, first.Body)
	}
	if h := second.Header.Get("Idempotent-Replayed"); h != "true" {
		t.Errorf("replay: Idempotent-Replayed = %q, want true", h)
	}
	if n := countProducts(t, env, "IDEM-1"); n != 1 {
		t.Errorf("products created: %d, want 1", n)
	}
	other := post(t, c, "/open/v1/products", "create-1", productBody("IDEM-2"))
	if other.Status != http.StatusConflict || errorCode(t, other) != "IDEMPOTENCY_KEY_REUSED" {
		t.Errorf("other body: %d %s, want 409 IDEMPOTENCY_KEY_REUSED", other.Status, other.Body)
	}
	// Another app's key of the same name is its own.
	limited := env.Client(t, "limited", 0)
	if r := post(t, limited, "/open/v1/products", "create-1", productBody("IDEM-3")); r.Status == http.StatusConflict {
		t.Errorf("another app's same key: %d %s", r.Status, r.Body)
	}
	// Without a key the method runs every time (the key is optional): the
	// repeat is not a replay but a second create, which finds the first's
	// SKU taken (SKUs are unique across the seller's products).
	if r := post(t, c, "/open/v1/products", "", productBody("IDEM-4")); r.Status != http.StatusCreated {
		t.Fatalf("no key: %d %s", r.Status, r.Body)
	}
	if r := post(t, c, "/open/v1/products", "", productBody("IDEM-4")); r.Status != http.StatusConflict ||
		errorCode(t, r) != "DUPLICATE" || r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("no key, again: %d %s, want 409 DUPLICATE from a second run", r.Status, r.Body)
	}
	if n := countProducts(t, env, "IDEM-4"); n != 1 {
		t.Errorf("products created without a key: %d, want 1", n)
	}
}

// A request refused before it executed (here by validation) stores
// nothing: the client fixes the body and retries with the same key.
func TestRejectedRequestStoresNothing(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	c := env.Client(t, "full", 0)
	bad := post(t, c, "/open/v1/products", "fix-and-retry", []byte(`{"title":""}`))
	if bad.Status != http.StatusBadRequest {
		t.Fatalf("invalid body: %d %s", bad.Status, bad.Body)
	}
	if n := keysStored(t, env, "fix-and-retry"); n != 0 {
		t.Errorf("keys stored after a validation error: %d, want 0", n)
	}
	// A signature failure does not reach core at all.
	r, err := c.DoSigned(context.Background(), sdk.Request{Method: "POST", Path: "/open/v1/products", Body: productBody("IDEM-5"),
		ExtraHeaders: http.Header{"Idempotency-Key": {"fix-and-retry"}, "X-Platform-Signature": {strings.Repeat("0", 64)}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != http.StatusUnauthorized {
		t.Fatalf("bad signature: %d %s", r.Status, r.Body)
	}
	good := post(t, c, "/open/v1/products", "fix-and-retry", productBody("IDEM-5"))
	if good.Status != http.StatusCreated {
		t.Errorf("retry with the same key: %d %s, want 201", good.Status, good.Body)
	}
}

// A key held by a live attempt answers 409 IDEMPOTENCY_KEY_IN_PROGRESS with
// Retry-After; once the holder's lease has passed (it died), a retry takes
// the key over and runs.
func TestInProgressKeyAndLeaseExpiry(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	c := env.Client(t, "full", 0)
	body := productBody("IDEM-6")
	app, err := env.DB.Ent.App.Query().Where().All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var appID string
	for _, a := range app {
		if a.ClientID == env.Creds.Apps["full"].ClientID {
			appID = a.ID
		}
	}
	if appID == "" {
		t.Fatal("app full not found")
	}
	// A holder that claimed the key and died mid-request.
	now := env.Clock.Now()
	store := idempotency.NewEntStore(env.DB.Ent)
	_, err = store.Claim(context.Background(), idempotency.Claim{Scope: "app:" + appID, Key: "dead-holder",
		Fingerprint: idempotency.HTTPFingerprint("POST", "/open/v1/products", "", body),
		Method:      "/mp.catalog.v1.CatalogService/CreateProduct", Holder: "dead", Now: now, LockedUntil: now.Add(idempotency.DefaultLease)})
	if err != nil {
		t.Fatal(err)
	}
	busy := post(t, c, "/open/v1/products", "dead-holder", body)
	if busy.Status != http.StatusConflict || errorCode(t, busy) != "IDEMPOTENCY_KEY_IN_PROGRESS" || busy.Header.Get("Retry-After") == "" {
		t.Fatalf("held key: %d %s Retry-After %q, want 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After", busy.Status, busy.Body, busy.Header.Get("Retry-After"))
	}
	if n := countProducts(t, env, "IDEM-6"); n != 0 {
		t.Fatalf("products created while the key was held: %d", n)
	}
	env.Clock.Advance(idempotency.DefaultLease + time.Second)
	taken := post(t, c, "/open/v1/products", "dead-holder", body)
	if taken.Status != http.StatusCreated || taken.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("after the lease: %d %s, want a fresh 201", taken.Status, taken.Body)
	}
	again := post(t, c, "/open/v1/products", "dead-holder", body)
	if again.Status != http.StatusCreated || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("repeat after take-over: %d, want the replay", again.Status)
	}
	if n := countProducts(t, env, "IDEM-6"); n != 1 {
		t.Errorf("products created: %d, want 1", n)
	}
}

// 100 identical requests at once with one key, on PostgreSQL: exactly one
// executes; every other answer is its replay or 409 in progress.
func TestConcurrentIdenticalRequestsExecuteOnce(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	c := env.Client(t, "full", 0)
	body := productBody("IDEM-100")
	const n = 100
	var wg sync.WaitGroup
	answers := make([]*sdk.Response, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r, err := c.DoSigned(context.Background(), sdk.Request{Method: "POST", Path: "/open/v1/products", Body: body,
				ExtraHeaders: http.Header{"Idempotency-Key": {"one-hundred"}}})
			if err != nil {
				t.Error(err)
				return
			}
			answers[i] = r
		}()
	}
	close(start)
	wg.Wait()
	var executed, replayed, inProgress int
	var firstBody []byte
	for _, r := range answers {
		if r == nil {
			continue
		}
		switch {
		case r.Status == http.StatusCreated && r.Header.Get("Idempotent-Replayed") == "":
			executed++
			firstBody = r.Body
		case r.Status == http.StatusCreated:
			replayed++
		case r.Status == http.StatusConflict && errorCode(t, r) == "IDEMPOTENCY_KEY_IN_PROGRESS":
			inProgress++
		default:
			t.Errorf("unexpected answer: %d %s", r.Status, r.Body)
		}
	}
	for _, r := range answers {
		if r != nil && r.Status == http.StatusCreated && !bytes.Equal(r.Body, firstBody) {
			t.Errorf("a replay differs from the executed answer:\n%s\n%s", r.Body, firstBody)
		}
	}
	t.Logf("%d requests: %d executed, %d replayed, %d in progress", n, executed, replayed, inProgress)
	if executed != 1 {
		t.Errorf("executed %d times, want 1", executed)
	}
	if got := countProducts(t, env, "IDEM-100"); got != 1 {
		t.Errorf("products created: %d, want 1", got)
	}
}

func ptr[T any](v T) *T { return &v }

func strValue(s string) *structpb.Value { return structpb.NewStringValue(s) }

// PUT takes a key too: a repeat replays the update's answer, and a final
// refusal (404) is kept and replayed like a success.
func TestUpdateProductReplays(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	c := env.Client(t, "full", 0)
	created := post(t, c, "/open/v1/products", "", productBody("IDEM-PUT"))
	var p struct {
		Data struct {
			ProductID string `json:"product_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(created.Body, &p); err != nil || p.Data.ProductID == "" {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	put := func(path, key, body string) *sdk.Response {
		r, err := c.DoSigned(context.Background(), sdk.Request{Method: "PUT", Path: path, Body: []byte(body),
			ExtraHeaders: http.Header{"Idempotency-Key": {key}}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	path := "/open/v1/products/" + p.Data.ProductID
	first := put(path, "rename", `{"title":"Acme Pan 26cm"}`)
	if first.Status != http.StatusOK {
		t.Fatalf("update: %d %s", first.Status, first.Body)
	}
	second := put(path, "rename", `{"title":"Acme Pan 26cm"}`)
	if second.Status != http.StatusOK || !bytes.Equal(second.Body, first.Body) || second.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("repeat: %d %s replayed=%q, want the first answer replayed", second.Status, second.Body, second.Header.Get("Idempotent-Replayed"))
	}
	missing := "/open/v1/products/prd_doesnotexist"
	nf := put(missing, "missing", `{"title":"Acme Pan 28cm"}`)
	if nf.Status != http.StatusNotFound {
		t.Fatalf("missing product: %d %s", nf.Status, nf.Body)
	}
	again := put(missing, "missing", `{"title":"Acme Pan 28cm"}`)
	// The error body is the first one byte for byte, its requestId
	// included; the response header names the repeat.
	if again.Status != http.StatusNotFound || again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, nf.Body) {
		t.Errorf("repeat of a 404: %d %s replayed=%q, want the 404 replayed: %s", again.Status, again.Body, again.Header.Get("Idempotent-Replayed"), nf.Body)
	}
	if again.Header.Get("X-Request-Id") == nf.Header.Get("X-Request-Id") {
		t.Errorf("the repeat's X-Request-Id %q is the first request's", again.Header.Get("X-Request-Id"))
	}
}

// A route whose policy requires a key refuses a request without one before
// it runs, and takes one with a key.
func TestRequiredKey(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	c := env.Client(t, "full", 0)
	body := []byte(`{"orders":[{"orderId":"ord_x"}]}`)
	without := post(t, c, "/open/v1/orders/bulk-cancel", "", body)
	if without.Status != http.StatusBadRequest || errorCode(t, without) != "IDEMPOTENCY_KEY_REQUIRED" {
		t.Errorf("bulk cancel without a key: %d %s, want 400 IDEMPOTENCY_KEY_REQUIRED", without.Status, without.Body)
	}
	with := post(t, c, "/open/v1/orders/bulk-cancel", "cancel-1", body)
	if with.Status != http.StatusOK {
		t.Errorf("bulk cancel with a key: %d %s, want the bulk result", with.Status, with.Body)
	}
	if n := keysStored(t, env, "cancel-1"); n != 1 {
		t.Errorf("%d keys stored for the request that ran, want 1", n)
	}
}
