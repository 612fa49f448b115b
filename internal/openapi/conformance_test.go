package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/mallplatform/partnerapi/internal/openapi"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// committed is the document CI keeps in step with the protos.
const committed = "../../gen/openapi/openapi.json"

// TestConformance checks the document against the platform's real answers:
// every route is called with requests built from the document's examples
// (which must themselves validate), and with requests that draw each error
// class the route can answer; every answer (status, headers, body) is
// validated against the document, and must carry the error code the case
// expects.
func TestConformance(t *testing.T) {
	// Every route with every error class is more requests than one address
	// may send a minute; the limits have their own case below.
	env := testenv.Start(t, testenv.Options{Unlimited: true, Uploads: dirBucket(t)})
	served := getDocument(t, env.BaseURL)
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served, want) {
		t.Fatalf("GET /open/v1/openapi.json differs from %s; run make openapi", committed)
	}
	c := newChecker(t, served, env)

	// Ids of real resources, for the requests that must succeed; the
	// examples' own ids are illustrative and answer 404.
	orderID := c.firstOrderID()
	for _, op := range c.operations() {
		t.Run(op.id, func(t *testing.T) { c.checkOperation(t, op, orderID) })
	}
	t.Run("consent flow", func(t *testing.T) { c.checkConsentFlow(t) })
	t.Run("inventory", func(t *testing.T) { c.checkInventory(t) })
	t.Run("upload storage", func(t *testing.T) { c.checkUploadStorage(t) })
	t.Run("rate limited", func(t *testing.T) { c.checkRateLimited(t) })
	t.Run("database faults", func(t *testing.T) { c.checkDatabaseFaults(t) })

	// Every route answered its success status (501 for those declared but
	// not built) and at least one error, all valid.
	for _, op := range c.operations() {
		success := op.successStatus()
		if op.notBuilt() {
			success = http.StatusNotImplemented
		}
		if c.seen[op.id][success] == 0 {
			t.Errorf("%s: no %d answer was validated", op.id, success)
		}
		if len(c.seen[op.id]) < 2 {
			t.Errorf("%s: no error answer was validated", op.id)
		}
	}
	routes, answers := 0, 0
	var lines []string
	for _, op := range c.operations() {
		routes++
		var statuses []string
		for s, n := range c.seen[op.id] {
			answers += n
			statuses = append(statuses, fmt.Sprintf("%d×%d", s, n))
		}
		sort.Strings(statuses)
		lines = append(lines, op.method+" "+op.path+": "+strings.Join(statuses, " "))
	}
	t.Logf("validated %d answers of %d routes against the document:\n%s", answers, routes, strings.Join(lines, "\n"))
}

func getDocument(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/open/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /open/v1/openapi.json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return body
}

type checker struct {
	t      *testing.T
	env    *testenv.Env
	doc    *openapi3.T
	router routers.Router
	// seen counts validated answers per operation and status.
	seen map[string]map[int]int
	keys int
	// skus counts the example bodies sent, for fresh SKUs.
	skus int
	// subscriptions counts the webhook subscriptions made, for fresh URLs.
	subscriptions int
}

// The consent page and its assets answer HTML, CSS and JavaScript: their
// bodies are validated as the strings the document says they are.
func init() {
	for _, ct := range []string{"text/html", "text/css", "text/javascript"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
	// Uploaded images, sent and served as raw bytes.
	for _, ct := range []string{"image/jpeg", "image/png", "image/webp"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
}

func newChecker(t *testing.T, raw []byte, env *testenv.Env) *checker {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("the document is not valid OpenAPI: %v", err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.0.0" {
		t.Fatalf("openapi %s, info.version %s", doc.OpenAPI, doc.Info.Version)
	}
	// The test's gateway listens on a port of its own.
	doc.Servers = openapi3.Servers{{URL: env.BaseURL}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &checker{t: t, env: env, doc: doc, router: router, seen: map[string]map[int]int{}}
}

type operation struct {
	id, method, path string
	op               *openapi3.Operation
}

func (o operation) policy() map[string]any {
	p, _ := o.op.Extensions["x-mp-policy"].(map[string]any)
	return p
}

func (o operation) successStatus() int {
	n, _ := o.policy()["successStatus"].(float64)
	return int(n)
}

func (o operation) signed() bool     { return o.policy()["auth"] == "hmac-v3" }
func (o operation) session() bool    { return o.policy()["auth"] == "session" }
func (o operation) owned() bool      { return o.policy()["gatewayOwned"] == true }
func (o operation) signIn() bool     { return o.policy()["signInLimits"] != nil }
func (o operation) seller() bool     { return o.policy()["sellerToken"] == true }
func (o operation) sandbox() bool    { return o.policy()["sandbox"] == true }
func (o operation) notBuilt() bool   { return o.policy()["notBuilt"] == true }
func (o operation) scope() string    { s, _ := o.policy()["scope"].(string); return s }
func (o operation) idempotency() any { return o.policy()["idempotency"] }

// pageRefusal: the document describes the operation's 400 as a page too
// (a page status of the route's policy, beside the pipeline's error body),
// which is how such a route refuses its query.
func (o operation) pageRefusal() bool {
	r := o.op.Responses.Status(http.StatusBadRequest)
	if r == nil || r.Value == nil {
		return false
	}
	for mediaType := range r.Value.Content {
		if mediaType != "application/json" {
			return true
		}
	}
	return false
}

// rawBody: the request body is raw bytes (an image), not JSON.
func (o operation) rawBody() bool {
	return o.op.RequestBody != nil && o.op.RequestBody.Value.Content.Get("application/json") == nil
}

func (c *checker) operations() []operation {
	var out []operation
	for _, path := range c.doc.Paths.InMatchingOrder() {
		for method, op := range c.doc.Paths.Value(path).Operations() {
			out = append(out, operation{id: op.OperationID, method: method, path: path, op: op})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// exampleRequest builds op's request from the document's examples; ids
// replaces path parameters by name.
func (c *checker) exampleRequest(op operation, ids map[string]string) sdk.Request {
	path := op.path
	query := url.Values{}
	var extra http.Header
	for _, pr := range op.op.Parameters {
		p := pr.Value
		v := p.Example
		if p.In == openapi3.ParameterInPath {
			val := fmt.Sprint(v)
			if id, ok := ids[p.Name]; ok {
				val = id
			}
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(val))
			continue
		}
		if v == nil {
			continue
		}
		switch p.In {
		case openapi3.ParameterInQuery:
			query.Set(p.Name, fmt.Sprint(v))
		case openapi3.ParameterInHeader:
			// A key is one logical request: each request gets its own.
			c.keys++
			if extra == nil {
				extra = http.Header{}
			}
			extra.Set(p.Name, fmt.Sprintf("%v-%d", v, c.keys))
		}
	}
	req := sdk.Request{Method: op.method, Path: path, RawQuery: query.Encode(), ExtraHeaders: extra}
	if op.rawBody() {
		// An image upload: raw bytes, no JSON example.
		if req.ExtraHeaders == nil {
			req.ExtraHeaders = http.Header{}
		}
		req.ExtraHeaders.Set("Content-Type", "image/png")
		req.Body = examplePNG(c.t, 3, 2)
		return req
	}
	if rb := op.op.RequestBody; rb != nil {
		ex := rb.Value.Content.Get("application/json").Example
		b, err := json.Marshal(ex)
		if err != nil {
			c.t.Fatal(err)
		}
		// A seller's SKUs are unique across its products: each example
		// sent is a new product with SKUs of its own.
		c.skus++
		req.Body = skuValue.ReplaceAll(b, []byte(fmt.Sprintf(`"sku":"${1}-%d"`, c.skus)))
	}
	return req
}

// skuValue matches a "sku" member of an example body.
var skuValue = regexp.MustCompile(`"sku":"([^"]*)"`)

// client is the seeded app (and seller) an operation's example is sent as.
func (c *checker) client(t *testing.T, app string, op operation) *sdk.Client {
	seller := -1
	if op.seller() {
		seller = 0
	}
	return c.env.Client(t, app, seller)
}

// answer is one validated answer.
type answer struct {
	status int
	header http.Header
	body   []byte
	code   string
}

// send sends hr, validates the request (when validRequest: it was built
// from the examples, so it must conform) and the answer, and counts it.
func (c *checker) send(t *testing.T, op operation, hr *http.Request, body []byte, validRequest bool) answer {
	t.Helper()
	ctx := context.Background()
	route, pathParams, err := c.router.FindRoute(hr)
	if err != nil {
		t.Fatalf("%s %s: no route in the document: %v", hr.Method, hr.URL, err)
	}
	if route.Operation.OperationID != op.id {
		t.Fatalf("%s %s: routed to %s, want %s", hr.Method, hr.URL, route.Operation.OperationID, op.id)
	}
	in := &openapi3filter.RequestValidationInput{
		Request: hr, PathParams: pathParams, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if validRequest {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			t.Errorf("%s %s: the example request does not conform: %v", hr.Method, hr.URL, err)
		}
		hr.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := noRedirects.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(got)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		t.Errorf("%s %s: answer %d does not conform: %v\n%s", hr.Method, hr.URL, resp.StatusCode, err, got)
	} else {
		if c.seen[op.id] == nil {
			c.seen[op.id] = map[int]int{}
		}
		c.seen[op.id][resp.StatusCode]++
	}
	a := answer{status: resp.StatusCode, header: resp.Header, body: got}
	var env struct {
		Error struct{ Code string } `json:"error"`
	}
	if resp.StatusCode >= 400 && json.Unmarshal(got, &env) == nil {
		a.code = env.Error.Code
	}
	if resp.StatusCode == http.StatusOK && op.method == http.MethodPost && op.path == "/open/v1/credentials/rotate" {
		c.adoptSecret(t, hr.Header.Get(signing.HeaderPartnerID), got)
	}
	return a
}

// adoptSecret makes the secret a rotation issued the one the app signs with
// from now on, as a partner would: the previous secret verifies for a while
// only, and a second rotation ends it.
func (c *checker) adoptSecret(t *testing.T, clientID string, body []byte) {
	t.Helper()
	var rotated struct {
		Data struct {
			ClientSecret string `json:"client_secret"`
		}
	}
	if err := json.Unmarshal(body, &rotated); err != nil || rotated.Data.ClientSecret == "" {
		t.Fatalf("a rotation answered 200 without a secret: %s", body)
	}
	for name, app := range c.env.Creds.Apps {
		if app.ClientID == clientID {
			app.ClientSecret = rotated.Data.ClientSecret
			c.env.Creds.Apps[name] = app
			return
		}
	}
	t.Fatalf("a rotation by unknown client id %s", clientID)
}

// do signs req as cl and sends it.
func (c *checker) do(t *testing.T, op operation, cl *sdk.Client, req sdk.Request, validRequest bool) answer {
	t.Helper()
	if cl == nil {
		hr, err := http.NewRequest(req.Method, c.env.BaseURL+req.Path+query(req.RawQuery), bytes.NewReader(req.Body))
		if err != nil {
			t.Fatal(err)
		}
		if req.Body != nil {
			hr.Header.Set("Content-Type", "application/json")
		}
		for k, v := range req.ExtraHeaders {
			hr.Header[k] = v
		}
		return c.send(t, op, hr, req.Body, validRequest)
	}
	hr, err := cl.NewRequest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return c.send(t, op, hr, req.Body, validRequest)
}

func query(raw string) string {
	if raw == "" {
		return ""
	}
	return "?" + raw
}

// expect checks an answer's status and code.
func expect(t *testing.T, what string, a answer, status int, code string) {
	t.Helper()
	if a.status != status || a.code != code {
		t.Errorf("%s: %d %s, want %d %s\n%s", what, a.status, a.code, status, code, a.body)
	}
}

// subscription creates a webhook subscription of the full app (a fresh URL
// each time) and returns its id.
func (c *checker) subscription(t *testing.T) string {
	c.subscriptions++
	var w struct{ ID string }
	body := map[string]string{"eventType": "order.cancelled",
		"callbackUrl": fmt.Sprintf("%s/%d", openapi.ExampleCallbackURL, c.subscriptions)}
	if _, err := c.env.Client(t, "full", -1).Call(context.Background(), http.MethodPost, "/open/v1/webhooks", body, &w); err != nil || w.ID == "" {
		t.Fatalf("subscription: %v", err)
	}
	return w.ID
}

// attempt logs a delivery attempt of subscription sub (no worker runs here)
// and returns its id.
func (c *checker) attempt(t *testing.T, sub string) string {
	w, err := c.env.DB.Ent.WebhookSubscription.Get(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprintf("dlv_conformance%d", c.subscriptions)
	err = c.env.DB.Ent.WebhookDelivery.Create().SetID(id).SetSubscriptionID(sub).SetAppID(w.AppID).
		SetEventID("evt_conformance").SetEventType(w.EventType).SetAttempt(1).SetStatus("failed").SetDurationMs(3).
		SetError("receiver did not answer 2xx: 500").SetCreatedAt(c.env.Clock.Now()).Exec(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// testOrder creates a test order of seller 0 in status and returns its id.
func (c *checker) testOrder(t *testing.T, status string) string {
	var o struct{ ID string }
	body := map[string]string{"status": status}
	if _, err := c.env.Client(t, "full", 0).Call(context.Background(), http.MethodPost, "/open/v1/sandbox/orders", body, &o); err != nil || o.ID == "" {
		t.Fatalf("test order: %v", err)
	}
	return o.ID
}

// deliveredOrder is a test order moved to DELIVERED.
func (c *checker) deliveredOrder(t *testing.T) string {
	id := c.testOrder(t, "READY_TO_SHIP")
	for _, to := range []string{"SHIPPED", "DELIVERED"} {
		var o struct{ Status string }
		if _, err := c.env.Client(t, "full", 0).Call(context.Background(), http.MethodPost, "/open/v1/sandbox/orders/"+id+"/transition",
			map[string]string{"to": to}, &o); err != nil || o.Status != to {
			t.Fatalf("test order to %s: %v", to, err)
		}
	}
	return id
}

// testReturn is a return of a delivered test order, REQUESTED.
func (c *checker) testReturn(t *testing.T) string {
	var r struct {
		ReturnID string `json:"returnId"`
	}
	body := map[string]string{"orderId": c.deliveredOrder(t), "reason": "The size does not fit."}
	if _, err := c.env.Client(t, "full", 0).Call(context.Background(), http.MethodPost, "/open/v1/sandbox/returns", body, &r); err != nil || r.ReturnID == "" {
		t.Fatalf("test return: %v", err)
	}
	return r.ReturnID
}

// returnMove posts a move of a test return that must succeed.
func (c *checker) returnMove(t *testing.T, path, body string) {
	resp, err := c.env.Client(t, "full", 0).DoSigned(context.Background(), sdk.Request{Method: http.MethodPost, Path: path, Body: []byte(body)})
	if err != nil || resp.Status != http.StatusOK {
		t.Fatalf("%s: %v %v", path, resp, err)
	}
}

// bookedOrder is a test order booked for a drop-off.
func (c *checker) bookedOrder(t *testing.T) string {
	id := c.testOrder(t, "READY_TO_SHIP")
	resp, err := c.env.Client(t, "full", 0).DoSigned(context.Background(), sdk.Request{Method: http.MethodPost,
		Path: "/open/v1/orders/" + id + "/shipment", Body: []byte(`{"method":"DROPOFF","channelId":"JNT_STANDARD"}`),
		ExtraHeaders: http.Header{sdk.HeaderIdempotencyKey: {"book-" + id}}})
	if err != nil || resp.Status != http.StatusCreated {
		t.Fatalf("book %s: %v %v", id, resp, err)
	}
	return id
}

func (c *checker) firstEventID() string {
	var events []struct{ ID string }
	if _, err := c.env.Client(c.t, "full", 0).Call(context.Background(), http.MethodGet, "/open/v1/events?limit=1", nil, &events); err != nil || len(events) == 0 {
		c.t.Fatalf("no seeded event: %v", err)
	}
	return events[0].ID
}

func (c *checker) firstOrderID() string {
	var orders []struct{ ID string }
	if _, err := c.env.Client(c.t, "full", 0).Call(context.Background(), http.MethodGet, "/open/v1/orders?limit=1", nil, &orders); err != nil || len(orders) == 0 {
		c.t.Fatalf("no seeded order: %v", err)
	}
	return orders[0].ID
}

func (c *checker) checkOperation(t *testing.T, op operation, orderID string) {
	if !op.signed() {
		if op.owned() {
			c.checkUnsigned(t, op)
		} else {
			c.checkConsent(t, op)
		}
		return
	}
	full := c.client(t, "full", op)
	example := c.exampleRequest(op, nil)
	success := op.successStatus()
	if op.notBuilt() {
		success = http.StatusNotImplemented
	}

	// The examples as they stand: the illustrative ids are nobody's.
	a := c.do(t, op, full, example, true)
	switch {
	case strings.Contains(op.path, "/orders/{id}") || strings.Contains(op.path, "/products/{id}") || strings.Contains(op.path, "/events/{id}") ||
		strings.Contains(op.path, "/webhooks/{id}") || strings.HasSuffix(op.path, "/webhooks/test") || strings.Contains(op.path, "/shipments/{id}") ||
		strings.Contains(op.path, "/returns/{id}") || op.path == "/open/v1/sandbox/returns" || op.path == labelsPath:
		expect(t, "example with its illustrative id", a, http.StatusNotFound, "NOT_FOUND")
	case op.notBuilt():
		expect(t, "example of a route not built", a, http.StatusNotImplemented, "NOT_IMPLEMENTED")
	case flowExamples[op.id].status != 0:
		// The flow's examples carry illustrative client ids, codes and
		// tokens; checkConsentFlow sends live ones.
		expect(t, "example with illustrative values", a, flowExamples[op.id].status, flowExamples[op.id].code)
	default:
		expect(t, "example", a, success, "")
	}

	// With ids of real resources.
	switch {
	case strings.HasSuffix(op.path, "/orders/{id}/cancel"):
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": c.testOrder(t, "READY_TO_SHIP")}), true)
		expect(t, "a test order ready to ship", a, success, "")
	case strings.HasSuffix(op.path, "/orders/{id}/tracking") || strings.HasSuffix(op.path, "/sandbox/shipments/{id}/tracking"):
		c.checkTracking(t, op, full, orderID)
	case strings.HasSuffix(op.path, "/shipment/label") || op.path == labelsPath:
		c.checkLabels(t, op, full)
	case strings.HasSuffix(op.path, "/orders/{id}/shipment") && op.method == http.MethodPost:
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": c.testOrder(t, "READY_TO_SHIP")}), true)
		expect(t, "a test order ready to ship", a, success, "")
	case strings.HasSuffix(op.path, "/orders/{id}/shipment"):
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": c.bookedOrder(t)}), true)
		expect(t, "a booked test order", a, success, "")
	case op.path == "/open/v1/sandbox/returns":
		req := c.exampleRequest(op, nil)
		req.Body = []byte(`{"orderId":"` + c.deliveredOrder(t) + `","reason":"The size does not fit."}`)
		expect(t, "a delivered test order", c.do(t, op, full, req, true), success, "")
	case strings.HasSuffix(op.path, "/returns/{id}/dispute"):
		id := c.testReturn(t)
		c.returnMove(t, "/open/v1/returns/"+id+"/approve", `{}`)
		c.returnMove(t, "/open/v1/sandbox/returns/"+id+"/transition", `{"to":"BUYER_SHIPPED"}`)
		expect(t, "a return whose parcel travels", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true), success, "")
	case strings.HasSuffix(op.path, "/sandbox/returns/{id}/transition"):
		id := c.testReturn(t)
		expect(t, "a return just filed", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true),
			http.StatusUnprocessableEntity, "INVALID_TRANSITION")
		c.returnMove(t, "/open/v1/returns/"+id+"/approve", `{}`)
		expect(t, "an approved return", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true), success, "")
	case strings.Contains(op.path, "/returns/{id}"):
		id := c.testReturn(t)
		expect(t, "a return just filed", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true), success, "")
		if op.method == http.MethodPost {
			expect(t, "a return already answered", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true),
				http.StatusConflict, "CONCURRENT_MODIFICATION")
		}
	case strings.Contains(op.path, "/orders/{id}/cancellation-request"):
		c.checkCancellation(t, op, full, orderID)
	case strings.HasSuffix(op.path, "/sandbox/orders/{id}/transition"):
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": c.testOrder(t, "PENDING")}), true)
		expect(t, "a pending test order", a, success, "")
	case strings.Contains(op.path, "/orders/{id}"):
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": orderID}), true)
		expect(t, "a seeded order", a, success, "")
	case strings.Contains(op.path, "/events/{id}"):
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": c.firstEventID()}), true)
		expect(t, "a seeded event", a, success, "")
	case strings.HasSuffix(op.path, "/deliveries/{delivery_id}/retry"):
		sub := c.subscription(t)
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": sub, "delivery_id": c.attempt(t, sub)}), true)
		expect(t, "an attempt logged", a, success, "")
	case strings.HasSuffix(op.path, "/webhooks/{id}/replay"):
		// The example's date is fixed; a replay reaches 30 days back.
		req := c.exampleRequest(op, map[string]string{"id": c.subscription(t)})
		req.Body = []byte(`{"since":"` + c.env.Clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339) + `"}`)
		expect(t, "a replay of the last hour", c.do(t, op, full, req, true), success, "")
	case strings.Contains(op.path, "/webhooks/{id}"):
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": c.subscription(t)}), true)
		expect(t, "a subscription just created", a, success, "")
	case strings.HasSuffix(op.path, "/webhooks/test"):
		req := c.exampleRequest(op, nil)
		req.Body = []byte(`{"subscriptionId":"` + c.subscription(t) + `"}`)
		expect(t, "a subscription just created", c.do(t, op, full, req, true), success, "")
	case strings.HasSuffix(op.path, "/products/{id}/status"):
		c.checkProductStatus(t, op, full)
	case strings.HasSuffix(op.path, "/sandbox/products/{id}/review"):
		id := c.createProduct(t)
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true)
		expect(t, "a product just created", a, success, "")
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true)
		expect(t, "a product already reviewed", a, http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	case op.method == http.MethodDelete && strings.HasSuffix(op.path, "/products/{id}"):
		id := c.createProduct(t)
		expect(t, "a product just created", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true), success, "")
		expect(t, "a product already deleted", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true), success, "")
		held := c.createProduct(t)
		c.testOrderOf(t, held)
		expect(t, "a product an order ready to ship holds", c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": held}), true),
			http.StatusUnprocessableEntity, "PRODUCT_HAS_ACTIVE_ORDERS")
	case strings.Contains(op.path, "/products/{id}"):
		id := c.createProduct(t)
		a = c.do(t, op, full, c.exampleRequest(op, map[string]string{"id": id}), true)
		expect(t, "a product just created", a, success, "")
	}

	// Signing failures, in the order the gateway checks them.
	req := example
	req.OmitHeaders = []string{signing.HeaderSignature}
	expect(t, "no signature header", c.do(t, op, full, req, false), http.StatusBadRequest, "BAD_REQUEST")
	req = example
	req.Version = "2"
	expect(t, "signature version 2", c.do(t, op, full, req, false), http.StatusUnauthorized, "HMAC_VERSION_DEPRECATED")
	req = example
	req.OmitHeaders = []string{signing.HeaderNonce}
	expect(t, "no nonce", c.do(t, op, full, req, false), http.StatusBadRequest, "MISSING_NONCE")
	req = example
	req.Nonce = "NOT-HEX"
	expect(t, "malformed nonce", c.do(t, op, full, req, false), http.StatusBadRequest, "INVALID_NONCE")
	req = example
	req.Timestamp = "1000000000"
	expect(t, "stale timestamp", c.do(t, op, full, req, false), http.StatusUnauthorized, "TIMESTAMP_EXPIRED")
	req = example
	req.ExtraHeaders = cloneHeader(example.ExtraHeaders)
	req.ExtraHeaders.Set(signing.HeaderSignature, strings.Repeat("0", 64))
	expect(t, "wrong signature", c.do(t, op, full, req, false), http.StatusUnauthorized, "INVALID_SIGNATURE")
	if op.sandbox() {
		expect(t, "live credentials on a sandbox tool", c.do(t, op, c.env.Client(t, "live", -1), example, false), http.StatusForbidden, "SANDBOX_ONLY")
	} else {
		expect(t, "live credentials on the sandbox", c.do(t, op, c.env.Client(t, "live", -1), example, false), http.StatusUnauthorized, "INVALID_CREDENTIALS")
	}

	// A replayed nonce.
	req = example
	req.Nonce = strings.Repeat("ab", 16)
	req.ExtraHeaders = c.freshKey(example.ExtraHeaders)
	c.do(t, op, full, req, false)
	expect(t, "nonce used twice", c.do(t, op, full, req, false), http.StatusUnauthorized, "NONCE_REUSED")

	// The route's policy: scope and seller.
	if s := op.scope(); s == "catalog:write" || s == "orders:write" {
		expect(t, "app without the scope", c.do(t, op, c.client(t, "limited", op), c.withFreshKey(example), false), http.StatusForbidden, "FORBIDDEN")
	}
	if op.seller() {
		expect(t, "no seller headers", c.do(t, op, c.env.Client(t, "full", -1), c.withFreshKey(example), false), http.StatusUnauthorized, "SELLER_TOKEN_REQUIRED")
		req = c.withFreshKey(example)
		req.ExtraHeaders.Set(signing.HeaderAccessToken, "not-a-token")
		expect(t, "a token that is not the seller's", c.do(t, op, full, req, false), http.StatusNotFound, "NOT_FOUND")
	}

	// Query and body form.
	req = c.withFreshKey(example)
	req.RawQuery = joinQuery(example.RawQuery, "no_such_parameter=1")
	expect(t, "unknown query parameter", c.do(t, op, full, req, false), http.StatusBadRequest, "VALIDATION_ERROR")
	if op.rawBody() {
		c.checkRawBody(t, op, full, example)
	} else if op.op.RequestBody != nil {
		req = c.withFreshKey(example)
		req.Body = []byte(`{"title":`)
		expect(t, "body that is not JSON", c.do(t, op, full, req, false), http.StatusBadRequest, "INVALID_JSON")
		req = c.withFreshKey(example)
		req.Body = []byte(`{"no_such_field":1}`)
		expect(t, "body with an unknown field", c.do(t, op, full, req, false), http.StatusBadRequest, "VALIDATION_ERROR")
		req = c.withFreshKey(example)
		max, _ := op.policy()["maxBodyBytes"].(float64)
		req.Body = bytes.Repeat([]byte(" "), int(max)+1)
		expect(t, "body over the cap", c.do(t, op, full, req, false), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	}

	// A category that is not in the tree, where the body names one.
	if !op.notBuilt() && op.op.RequestBody != nil && !op.rawBody() {
		req = c.withFreshKey(example)
		if strings.Contains(op.path, "{id}") {
			req = c.exampleRequest(op, map[string]string{"id": c.createProduct(t)})
		}
		if body, ok := setMember(t, req.Body, "category", "999999"); ok {
			req.Body = body
			expect(t, "a category that does not exist", c.do(t, op, full, req, true), http.StatusBadRequest, "CATEGORY_NOT_FOUND")
		}
	}

	if op.policy()["gzipBody"] == true {
		c.checkGzip(t, op, full, example)
	}

	// Idempotency.
	switch op.idempotency() {
	case "required":
		req = example
		req.ExtraHeaders = nil
		expect(t, "no Idempotency-Key", c.do(t, op, full, req, false), http.StatusBadRequest, "IDEMPOTENCY_KEY_REQUIRED")
	case "optional":
		if op.path != "/open/v1/products" && op.path != "/open/v1/products/bulk" {
			break
		}
		// A new example: the first one's SKUs are taken by now.
		req = c.withFreshKey(c.exampleRequest(op, nil))
		first := c.do(t, op, full, req, true)
		replay := c.do(t, op, full, req, true)
		if replay.status != first.status || !bytes.Equal(replay.body, first.body) || replay.header.Get(sdk.HeaderIdempotentReplayed) != "true" {
			t.Errorf("replay: %d %s (replayed %q), want the first answer %d", replay.status, replay.body, replay.header.Get(sdk.HeaderIdempotentReplayed), first.status)
		}
		req.Body = bytes.Replace(req.Body, []byte("Everyday"), []byte("Weekend!"), 1)
		expect(t, "key reused with another body", c.do(t, op, full, req, false), http.StatusConflict, "IDEMPOTENCY_KEY_REUSED")
		if op.path == "/open/v1/products" {
			// The first example created a product with these SKUs.
			expect(t, "SKUs the seller already has", c.do(t, op, full, c.withFreshKey(example), true), http.StatusConflict, "DUPLICATE")
		}
	}
}

// checkUnsigned checks a route the gateway answers itself, unsigned.
func (c *checker) checkUnsigned(t *testing.T, op operation) {
	req := c.exampleRequest(op, nil)
	if op.id == "GetAsset" {
		// Asset names carry a digest of their content: take the one the
		// consent page links (its page for a link without a session).
		req = c.exampleRequest(op, map[string]string{"name": c.consentAsset(t)})
	}
	if op.id == "GetUploadedFile" {
		// The example's file was never uploaded; an upload names one.
		expect(t, "a file nobody uploaded", c.do(t, op, nil, req, true), http.StatusNotFound, "NOT_FOUND")
		req = c.exampleRequest(op, map[string]string{"name": c.uploadedName(t)})
	}
	if op.id == "GetPage" {
		// The example's session is nobody's: the page says the link has
		// expired. A live session is one authorize started.
		expect(t, "example with an illustrative session", c.do(t, op, nil, req, true), http.StatusGone, "")
		req.RawQuery = "session=" + url.QueryEscape(c.liveConsentSession(t))
	}
	expect(t, "unsigned example", c.do(t, op, nil, req, true), op.successStatus(), "")
	// A route whose 400 is described as a page (the consent page) refuses a
	// query with it; every other route with the error body.
	unknown, malformed := "VALIDATION_ERROR", "BAD_REQUEST"
	if op.pageRefusal() {
		unknown, malformed = "", ""
	}
	req.RawQuery = "no_such_parameter=1"
	expect(t, "unknown query parameter", c.do(t, op, nil, req, false), http.StatusBadRequest, unknown)
	req.RawQuery = "a=%zz"
	expect(t, "malformed query", c.do(t, op, nil, req, false), http.StatusBadRequest, malformed)
}

// checkConsent checks a route the consent pages call from the seller's
// browser (unsigned, or with the consent session cookie).
func (c *checker) checkConsent(t *testing.T, op operation) {
	example := c.exampleRequest(op, nil)
	// The example's session is illustrative, and the session routes'
	// examples carry no cookie: core answers that the session is over.
	expect(t, "example without a live session", c.do(t, op, nil, example, true), http.StatusUnauthorized, "SESSION_EXPIRED")

	req := example
	req.ExtraHeaders = http.Header{"Sec-Fetch-Site": {"cross-site"}}
	expect(t, "a cross-site browser request", c.do(t, op, nil, req, false), http.StatusForbidden, "FORBIDDEN")
	req.ExtraHeaders = http.Header{"Origin": {"https://elsewhere.example"}}
	expect(t, "a request from another origin", c.do(t, op, nil, req, false), http.StatusForbidden, "FORBIDDEN")
	req = example
	req.RawQuery = "no_such_parameter=1"
	expect(t, "unknown query parameter", c.do(t, op, nil, req, false), http.StatusBadRequest, "VALIDATION_ERROR")
	if op.op.RequestBody != nil {
		req = example
		req.Body = []byte(`{"code":`)
		expect(t, "body that is not JSON", c.do(t, op, nil, req, false), http.StatusBadRequest, "INVALID_JSON")
		req.Body = []byte(`{"no_such_field":1}`)
		expect(t, "body with an unknown field", c.do(t, op, nil, req, false), http.StatusBadRequest, "VALIDATION_ERROR")
		max, _ := op.policy()["maxBodyBytes"].(float64)
		req.Body = bytes.Repeat([]byte(" "), int(max)+1)
		expect(t, "body over the cap", c.do(t, op, nil, req, false), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	}
	if op.session() {
		// The app's signature is optional; sent, it must verify.
		req = example
		req.ExtraHeaders = http.Header{signing.HeaderSignature: {strings.Repeat("0", 64)}}
		expect(t, "a wrong signature", c.do(t, op, c.env.Client(t, "full", -1), req, false), http.StatusUnauthorized, "INVALID_SIGNATURE")
	}
	if op.signIn() {
		// The example's username runs out of attempts.
		var a answer
		for range 12 {
			if a = c.do(t, op, nil, example, false); a.status == http.StatusTooManyRequests {
				break
			}
		}
		expect(t, "attempts over the sign-in limit", a, http.StatusTooManyRequests, "RATE_LIMITED")
		if a.header.Get(sdk.HeaderRetryAfter) == "" {
			t.Errorf("%s: 429 without Retry-After", op.id)
		}
	}
}

// checkRateLimited sends every route's example on a platform whose app
// ceiling is one request a minute: every answer after the first is 429.
func (c *checker) checkRateLimited(t *testing.T) {
	var opts testenv.Options
	opts.Limits.AppPerMinute = 1
	limited := c.on(t, testenv.Start(t, opts))
	first := true
	for _, op := range c.operations() {
		if !op.signed() {
			continue
		}
		a := limited.do(t, op, limited.client(t, "full", op), limited.exampleRequest(op, nil), false)
		if first {
			first = false
			continue
		}
		expect(t, op.id+" over the app's ceiling", a, http.StatusTooManyRequests, "RATE_LIMITED")
		if a.header.Get(sdk.HeaderRetryAfter) == "" {
			t.Errorf("%s: 429 without Retry-After", op.id)
		}
	}
}

// checkDatabaseFaults sends the examples while PostgreSQL is cut off (503
// where a route needs it) and while it does not answer (504 at the call's
// deadline); whatever each route answers must be in the document.
func (c *checker) checkDatabaseFaults(t *testing.T) {
	env := testenv.Start(t, testenv.Options{DatabaseProxy: true, RequestTimeout: 2 * time.Second})
	faulty := c.on(t, env)
	orderID := faulty.firstOrderID()
	var getOrder operation
	for _, op := range c.operations() {
		if op.signed() {
			// Warm the gateway's credential cache: the faults are core's.
			faulty.do(t, op, faulty.client(t, "full", op), faulty.exampleRequest(op, nil), false)
		}
		if op.id == "GetOrder" {
			getOrder = op
		}
	}
	env.DBProxy.Cut()
	for _, op := range c.operations() {
		faulty.do(t, op, faulty.client(t, "full", op), faulty.exampleRequest(op, nil), false)
	}
	a := faulty.do(t, getOrder, faulty.client(t, "full", getOrder), faulty.exampleRequest(getOrder, map[string]string{"id": orderID}), false)
	expect(t, "an order while the database is cut off", a, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	env.DBProxy.Resume()
	env.DBProxy.Freeze()
	a = faulty.do(t, getOrder, faulty.client(t, "full", getOrder), faulty.exampleRequest(getOrder, map[string]string{"id": orderID}), false)
	expect(t, "an order while the database does not answer", a, http.StatusGatewayTimeout, "UPSTREAM_TIMEOUT")
	env.DBProxy.Resume()
}

// on is c against another platform, counting into the same tally.
func (c *checker) on(t *testing.T, env *testenv.Env) *checker {
	doc := *c.doc
	doc.Servers = openapi3.Servers{{URL: env.BaseURL}}
	router, err := legacy.NewRouter(&doc)
	if err != nil {
		t.Fatal(err)
	}
	return &checker{t: t, env: env, doc: &doc, router: router, seen: c.seen}
}

// checkProductStatus sends the status change example (unlisted, guarded
// by live) to products in each state that answers differently.
func (c *checker) checkProductStatus(t *testing.T, op operation, full *sdk.Client) {
	id := c.createProduct(t)
	c.review(t, id)
	req := func(id string) sdk.Request { return c.exampleRequest(op, map[string]string{"id": id}) }
	expect(t, "a live product", c.do(t, op, full, req(id), true), op.successStatus(), "")
	expect(t, "a guard that no longer holds", c.do(t, op, full, req(id), true), http.StatusConflict, "CONCURRENT_MODIFICATION")
	unguarded := func(id string) sdk.Request {
		r := req(id)
		r.Body = []byte(`{"status":"unlisted"}`)
		return r
	}
	expect(t, "the same status again", c.do(t, op, full, unguarded(id), true), op.successStatus(), "")
	expect(t, "a product in review", c.do(t, op, full, unguarded(c.createProduct(t)), true), http.StatusUnprocessableEntity, "PRODUCT_UNDER_REVIEW")
	gone := c.createProduct(t)
	if _, err := c.env.Client(t, "full", 0).Call(context.Background(), http.MethodDelete, "/open/v1/products/"+gone, nil, nil); err != nil {
		t.Fatalf("delete: %v", err)
	}
	expect(t, "an archived product", c.do(t, op, full, unguarded(gone), true), http.StatusUnprocessableEntity, "INVALID_TRANSITION")
}

// review approves a product of seller 0 with the sandbox's review tool.
func (c *checker) review(t *testing.T, id string) {
	body := map[string]string{"outcome": "approve"}
	if _, err := c.env.Client(t, "full", 0).Call(context.Background(), http.MethodPost, "/open/v1/sandbox/products/"+id+"/review", body, nil); err != nil {
		t.Fatalf("review: %v", err)
	}
}

// testOrderOf creates a test order of seller 0, ready to ship, on its
// product.
func (c *checker) testOrderOf(t *testing.T, productID string) {
	body := map[string]any{"items": []map[string]any{{"productId": productID, "quantity": 1}}}
	if _, err := c.env.Client(t, "full", 0).Call(context.Background(), http.MethodPost, "/open/v1/sandbox/orders", body, nil); err != nil {
		t.Fatalf("test order: %v", err)
	}
}

// createProduct creates the example product and returns its id.
func (c *checker) createProduct(t *testing.T) string {
	for _, op := range c.operations() {
		if op.method != http.MethodPost || op.path != "/open/v1/products" {
			continue
		}
		a := c.do(t, op, c.client(t, "full", op), c.exampleRequest(op, nil), true)
		var env struct {
			Data struct {
				ProductID string `json:"product_id"`
			}
		}
		if a.status != op.successStatus() || json.Unmarshal(a.body, &env) != nil || env.Data.ProductID == "" {
			t.Fatalf("creating the example product: %d %s", a.status, a.body)
		}
		return env.Data.ProductID
	}
	t.Fatal("no product create operation")
	return ""
}

func (c *checker) withFreshKey(req sdk.Request) sdk.Request {
	req.ExtraHeaders = c.freshKey(req.ExtraHeaders)
	return req
}

// freshKey copies h with a new Idempotency-Key, when it has one.
func (c *checker) freshKey(h http.Header) http.Header {
	out := cloneHeader(h)
	if k := out.Get(sdk.HeaderIdempotencyKey); k != "" {
		c.keys++
		out.Set(sdk.HeaderIdempotencyKey, fmt.Sprintf("%s-r%d", k, c.keys))
	}
	return out
}

func cloneHeader(h http.Header) http.Header {
	if h == nil {
		return http.Header{}
	}
	return h.Clone()
}

func joinQuery(a, b string) string {
	if a == "" {
		return b
	}
	return a + "&" + b
}

// setMember sets a top-level member of a JSON object body, when it has it.
func setMember(t *testing.T, body []byte, name string, value any) ([]byte, bool) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m[name]; !ok {
		return nil, false
	}
	m[name] = value
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out, true
}

// consentAsset is the name of the stylesheet the consent page links.
func (c *checker) consentAsset(t *testing.T) string {
	t.Helper()
	resp, err := http.Get(c.env.BaseURL + "/open/v1/auth/consent")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`href="assets/([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("the consent page links no stylesheet: %d %s", resp.StatusCode, page)
	}
	return string(m[1])
}

// liveConsentSession starts an authorization of the full app (to its first
// registered redirect URI) and returns the session of the consent link.
func (c *checker) liveConsentSession(t *testing.T) string {
	t.Helper()
	q := url.Values{"client_id": {c.env.Creds.Apps["full"].ClientID}, "redirect_uri": {c.env.Creds.Apps["full"].RedirectURIs[0]}, "state": {"st-page"}}
	r, err := c.env.Client(t, "full", -1).Do(context.Background(), http.MethodGet, "/open/v1/auth/authorize?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(r.Header.Get("Location"))
	if r.Status != http.StatusFound || err != nil || u.Query().Get("session") == "" {
		t.Fatalf("authorize: %d Location %q %s", r.Status, r.Header.Get("Location"), r.Body)
	}
	return u.Query().Get("session")
}

// checkGzip checks a route that takes a gzip body: compressed, the example
// is the same request; its items' errors answer 200; a gzip bomb is 413, a
// stream that is not gzip 400, and gzip on a route without it 400.
func (c *checker) checkGzip(t *testing.T, op operation, full *sdk.Client, example sdk.Request) {
	fresh := c.exampleRequest(op, nil)
	fresh.Gzip = true
	expect(t, "the example, gzip-compressed", c.do(t, op, full, fresh, false), op.successStatus(), "")

	// An item that fails (an unknown category) is reported in the 200
	// answer, as an error item.
	req := c.exampleRequest(op, nil)
	req.Body = bytes.Replace(req.Body, []byte(`"category":"`), []byte(`"category":"9`), 1)
	a := c.do(t, op, full, req, true)
	expect(t, "an item with an unknown category", a, op.successStatus(), "")
	if !bytes.Contains(a.body, []byte(`"code":"CATEGORY_NOT_FOUND"`)) || !bytes.Contains(a.body, []byte(`"field":"category"`)) {
		t.Errorf("an item with an unknown category: %.400s", a.body)
	}

	req = c.withFreshKey(example)
	zeros, err := sdk.Gzip(make([]byte, 11<<20))
	if err != nil {
		t.Fatal(err)
	}
	req.Body, req.ExtraHeaders = zeros, cloneHeader(req.ExtraHeaders)
	req.ExtraHeaders.Set("Content-Encoding", "gzip")
	expect(t, "a gzip bomb", c.do(t, op, full, req, false), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	req = c.withFreshKey(example)
	req.ExtraHeaders = cloneHeader(req.ExtraHeaders)
	req.ExtraHeaders.Set("Content-Encoding", "gzip")
	expect(t, "a body that is not gzip", c.do(t, op, full, req, false), http.StatusBadRequest, "BAD_REQUEST")

	for _, other := range c.operations() {
		if other.method == http.MethodPost && other.path == "/open/v1/products" {
			req := c.exampleRequest(other, nil)
			req.Gzip = true
			expect(t, "gzip on product create", c.do(t, other, c.client(t, "full", other), req, false), http.StatusBadRequest, "BAD_REQUEST")
		}
	}
}
