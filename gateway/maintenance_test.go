package gateway_test

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mallplatform/partnerapi/gateway"
	maintenancev1 "github.com/mallplatform/partnerapi/gen/mp/maintenance/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// maintenanceEnv is a platform whose gateways read the switch every 10 ms
// (so a test waits little), a second gateway replica over the same core,
// and an operator's client of the admin service.
func maintenanceEnv(t *testing.T) (*testenv.Env, []string, maintenancev1.MaintenanceAdminServiceClient) {
	t.Helper()
	env := testenv.Start(t, testenv.Options{Mutate: func(c *gateway.Config) { c.Maintenance.Poll = 10 * time.Millisecond }})
	replicas := []string{env.BaseURL, env.AnotherGateway(t)}
	ops := env.InternalCaller(t, "ops", "mp.maintenance.v1.MaintenanceAdminService")
	return env, replicas, maintenancev1.NewMaintenanceAdminServiceClient(env.DialCore(t, ops))
}

// replicaClient is the seeded app's client on one replica.
func replicaClient(t *testing.T, env *testenv.Env, app, base string) *sdk.Client {
	t.Helper()
	cfg, err := env.Creds.Config(app)
	if err != nil {
		t.Fatal(err)
	}
	cfg.BaseURL, cfg.Now = base, env.Clock.Now
	c, err := sdk.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func get(t *testing.T, url string) *sdk.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

// waitReplica waits, with a bound far above the poll period, until an
// unsigned partner call to base answers as ok says: the replica has read
// the switch. An unsigned call claims no nonce and charges no app.
func waitReplica(t *testing.T, base string, what string, ok func(*sdk.Response) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := get(t, base+"/open/v1/usage")
		if ok(r) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never %s (last: %d %s)", base, what, r.Status, r.Body)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func inMaintenance(r *sdk.Response) bool { return r.Status == http.StatusServiceUnavailable }

func serving(r *sdk.Response) bool { return r.Status == http.StatusBadRequest }

// Both replicas follow on, then off; while on, partner routes answer the
// standard error body with MAINTENANCE and a Retry-After counted to until,
// before any work: a signed request's nonce is not claimed (the same
// request succeeds after maintenance) and an oversized body is not read.
// The OpenAPI document and the pages' assets keep answering; the consent
// page and the console's pages are maintenance pages.
func TestMaintenanceAcrossReplicas(t *testing.T) {
	env, replicas, admin := maintenanceEnv(t)
	for _, base := range replicas {
		if r := send(t, replicaClient(t, env, "full", base), sdk.Request{Method: "GET", Path: "/open/v1/usage"}); r.Status != 200 {
			t.Fatalf("%s before maintenance: %d %s", base, r.Status, r.Body)
		}
	}
	// Signed now, sent during maintenance, sent again after it.
	held := make([]*http.Request, len(replicas))
	for i, base := range replicas {
		req, err := replicaClient(t, env, "full", base).NewRequest(ctx, sdk.Request{Method: "GET", Path: "/open/v1/usage"})
		if err != nil {
			t.Fatal(err)
		}
		held[i] = req
	}

	until := env.Clock.Now().Add(150 * time.Second)
	on, err := admin.SetMaintenance(ctx, &maintenancev1.SetMaintenanceRequest{Environment: "sandbox",
		Until: timestamppb.New(until), Message: "Database upgrade in progress"})
	if err != nil {
		t.Fatal(err)
	}
	if d := on.GetData(); !d.GetOn() || d.GetSetBy() == "" || !d.GetUntil().AsTime().Equal(until) {
		t.Fatalf("set answered %v", d)
	}
	for _, base := range replicas {
		waitReplica(t, base, "went into maintenance", inMaintenance)
	}

	for i, base := range replicas {
		r := do(t, held[i].Clone(ctx))
		expectError(t, r, http.StatusServiceUnavailable, "MAINTENANCE")
		if got := r.Header.Get("Retry-After"); got != "150" {
			t.Errorf("%s: Retry-After %q, want 150 (until is 150 s away)", base, got)
		}
		if !bytes.Contains(r.Body, []byte(`"message":"Database upgrade in progress"`)) {
			t.Errorf("%s: body %s lacks the operator's message", base, r.Body)
		}
		// A body over the cap is not read: maintenance answers first.
		big := bytes.Repeat([]byte("x"), 1<<20+1)
		expectError(t, send(t, replicaClient(t, env, "full", base), sdk.Request{Method: "POST", Path: "/open/v1/products", Body: big}),
			http.StatusServiceUnavailable, "MAINTENANCE")
		// The developer console's routes are refused too.
		expectError(t, get(t, base+"/console/v1/apps"), http.StatusServiceUnavailable, "MAINTENANCE")
		// Unknown paths are still unknown.
		expectError(t, get(t, base+"/open/v1/nothing-here"), http.StatusNotFound, "NOT_FOUND")

		for _, path := range []string{"/open/v1/openapi.json", "/console/v1/openapi.json"} {
			if doc := get(t, base+path); doc.Status != 200 || !bytes.HasPrefix(doc.Body, []byte("{")) {
				t.Errorf("%s: %s during maintenance: %d", base, path, doc.Status)
			}
		}
		page := get(t, base+"/open/v1/auth/consent?session=sess_any")
		if page.Status != http.StatusServiceUnavailable || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: consent page during maintenance: %d %s %s", base, page.Status, page.Header.Get("Content-Type"), page.Body)
		}
		body := string(page.Body)
		for _, want := range []string{"paused for maintenance", "Database upgrade in progress",
			`datetime="` + until.UTC().Format(time.RFC3339) + `"`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the maintenance page lacks %q:\n%s", base, want, body)
			}
		}
		if page.Header.Get("Content-Security-Policy") == "" || page.Header.Get("Retry-After") != "150" {
			t.Errorf("%s: maintenance page headers %v", base, page.Header)
		}
		css := regexp.MustCompile(`href="(assets/[^"]+)"`).FindStringSubmatch(body)
		if css == nil {
			t.Fatalf("no stylesheet on the maintenance page")
		}
		if a := get(t, base+"/open/v1/auth/"+css[1]); a.Status != 200 {
			t.Errorf("%s: the page's stylesheet during maintenance: %d", base, a.Status)
		}
		// The developer console's pages answer their own maintenance
		// page; their assets stay up.
		for _, path := range []string{"/console/", "/console/signin", "/console/apps"} {
			page := get(t, base+path)
			if page.Status != http.StatusServiceUnavailable || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") ||
				page.Header.Get("Retry-After") != "150" || !bytes.Contains(page.Body, []byte("Database upgrade in progress")) {
				t.Fatalf("%s: console page %s during maintenance: %d %v %s", base, path, page.Status, page.Header, page.Body)
			}
			js := regexp.MustCompile(`src="(/console/assets/[^"]+)"`).FindSubmatch(page.Body)
			if js == nil {
				t.Fatalf("no script on the console's maintenance page")
			}
			if a := get(t, base+string(js[1])); a.Status != 200 {
				t.Errorf("%s: the console's script during maintenance: %d", base, a.Status)
			}
		}
	}

	if _, err := admin.ClearMaintenance(ctx, &maintenancev1.ClearMaintenanceRequest{Environment: "sandbox"}); err != nil {
		t.Fatal(err)
	}
	for _, base := range replicas {
		waitReplica(t, base, "left maintenance", serving)
	}
	// The requests refused during maintenance claimed no nonce.
	for i, base := range replicas {
		if r := do(t, held[i]); r.Status != 200 {
			t.Errorf("%s: the request refused in maintenance, sent again: %d %s", base, r.Status, r.Body)
		}
	}

	// Retry-After counts down to until, then falls back to the default
	// once until has passed while maintenance is still on.
	until = env.Clock.Now().Add(150 * time.Second)
	if _, err := admin.SetMaintenance(ctx, &maintenancev1.SetMaintenanceRequest{Environment: "sandbox",
		Until: timestamppb.New(until)}); err != nil {
		t.Fatal(err)
	}
	for _, base := range replicas {
		waitReplica(t, base, "went into maintenance again", inMaintenance)
	}
	env.Clock.Advance(100 * time.Second)
	r := send(t, replicaClient(t, env, "full", replicas[1]), sdk.Request{Method: "GET", Path: "/open/v1/usage"})
	expectError(t, r, http.StatusServiceUnavailable, "MAINTENANCE")
	if got := r.Header.Get("Retry-After"); got != "50" {
		t.Errorf("Retry-After 100 s later: %q, want 50", got)
	}
	env.Clock.Advance(60 * time.Second)
	r = send(t, replicaClient(t, env, "full", replicas[0]), sdk.Request{Method: "GET", Path: "/open/v1/usage"})
	expectError(t, r, http.StatusServiceUnavailable, "MAINTENANCE")
	if got := r.Header.Get("Retry-After"); got != "60" {
		t.Errorf("Retry-After after until passed: %q, want the default 60", got)
	}
}

// Without until, Retry-After is the configured default and the message
// the platform's words; production's switch leaves a sandbox gateway
// serving.
func TestMaintenanceDefaultsAndEnvironments(t *testing.T) {
	env, replicas, admin := maintenanceEnv(t)
	if _, err := admin.SetMaintenance(ctx, &maintenancev1.SetMaintenanceRequest{Environment: "production"}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.SetMaintenance(ctx, &maintenancev1.SetMaintenanceRequest{Environment: "sandbox"}); err != nil {
		t.Fatal(err)
	}
	waitReplica(t, replicas[0], "went into maintenance", inMaintenance)
	r := send(t, env.Client(t, "full", -1), sdk.Request{Method: "GET", Path: "/open/v1/usage"})
	expectError(t, r, http.StatusServiceUnavailable, "MAINTENANCE")
	if r.Header.Get("Retry-After") != "60" || !bytes.Contains(r.Body, []byte("the platform is in maintenance")) {
		t.Errorf("without until: Retry-After %q, body %s", r.Header.Get("Retry-After"), r.Body)
	}
	if _, err := admin.ClearMaintenance(ctx, &maintenancev1.ClearMaintenanceRequest{Environment: "sandbox"}); err != nil {
		t.Fatal(err)
	}
	waitReplica(t, replicas[0], "left maintenance while production is on", serving)

	// Refusals: an until not in the future, an unknown environment.
	if _, err := admin.SetMaintenance(ctx, &maintenancev1.SetMaintenanceRequest{Environment: "sandbox",
		Until: timestamppb.New(env.Clock.Now().Add(-time.Minute))}); err == nil || !strings.Contains(err.Error(), "until") {
		t.Errorf("an until in the past: %v", err)
	}
	if _, err := admin.SetMaintenance(ctx, &maintenancev1.SetMaintenanceRequest{Environment: "staging"}); err == nil {
		t.Error("an unknown environment was accepted")
	}
}

// The gateway's read is the gateway's alone; the admin service is refused
// to an internal caller not granted it.
func TestMaintenanceServicesCallers(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	anyCaller := env.DialCore(t, env.InternalCaller(t, "everything"))
	if _, err := maintenancev1.NewMaintenanceServiceClient(anyCaller).GetMaintenance(ctx,
		&maintenancev1.GetMaintenanceRequest{Environment: "sandbox"}); err == nil || !strings.Contains(err.Error(), "FORBIDDEN") && !strings.Contains(err.Error(), "PermissionDenied") {
		t.Errorf("an internal caller read the gateway's service: %v", err)
	}
	other := env.DialCore(t, env.InternalCaller(t, "orders-only", "mp.orders.v1.OrdersService"))
	if _, err := maintenancev1.NewMaintenanceAdminServiceClient(other).SetMaintenance(ctx,
		&maintenancev1.SetMaintenanceRequest{Environment: "sandbox"}); err == nil {
		t.Error("a caller not granted the admin service switched maintenance")
	}
}
