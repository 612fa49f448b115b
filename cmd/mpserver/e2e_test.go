package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/loopback"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
)

// TestEndToEnd builds the server binary and runs core and gateway as
// separate processes on a fresh PostgreSQL database, then drives them
// through the partner SDK exactly as a partner would.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the binaries")
	}
	pl := startPlatform(t)
	creds := pl.creds
	client, err := creds.Client("full", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	// Orders: a filtered list, then one order by id.
	var orders []map[string]any
	r, err := client.Do(ctx, "GET", "/open/v1/orders?status=SHIPPED&limit=100", nil)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := r.DecodeList(&orders)
	if err != nil || len(orders) == 0 || meta.Limit != 100 || meta.Total < len(orders) {
		t.Fatalf("orders: %v %d %+v %s", err, len(orders), meta, r.Body)
	}
	for _, o := range orders {
		if o["status"] != "SHIPPED" {
			t.Fatalf("status filter: %v", o["status"])
		}
	}
	// The full app holds customer:email:read, so an order whose buyer has
	// an email shows it, in the list and by id. (The sandbox has a few
	// phone-only buyers, whose orders have no email to show.)
	id, email := "", ""
	for _, o := range orders {
		if e, ok := o["buyerEmail"].(string); ok && e != "" {
			id, email = o["id"].(string), e
			break
		}
	}
	if id == "" {
		t.Fatalf("no shipped order shows buyerEmail to the full app: %s", r.Body)
	}
	var order map[string]any
	if r, err = client.Do(ctx, "GET", "/open/v1/orders/"+id, nil); err != nil || r.Decode(&order) != nil || order["id"] != id {
		t.Fatalf("order %s: %v %s", id, err, r.Body)
	}
	if order["buyerEmail"] != email {
		t.Fatalf("buyerEmail by id %v, in the list %q: %s", order["buyerEmail"], email, r.Body)
	}
	// Another seller's order is NOT_FOUND.
	other, _ := creds.Client("full", 1)
	if r, _ = other.Do(ctx, "GET", "/open/v1/orders/"+id, nil); r.Status != http.StatusNotFound || sdk.ErrorCode(r.Decode(nil)) != "NOT_FOUND" {
		t.Fatalf("cross-seller read: %d %s", r.Status, r.Body)
	}

	// Catalog: find a leaf category, create a product, update it, list it.
	leaf := findLeaf(t, client)
	body := fmt.Sprintf(`{"title":"Ceramic pour-over set","category":%q,"images":["https://cdn.example.ph/p/1.jpg"],"weight":850,"length":20,"width":15,"height":12,"attribute_values":%s,"variants":[{"sku":"POUR-1","price":129900,"stock":12,"options":{"Colour":"White"}},{"sku":"POUR-2","price":129900,"stock":3,"options":{"Colour":"Black"}}]}`,
		leaf.id, leaf.attributeValues)
	var product map[string]any
	r, err = client.Do(ctx, "POST", "/open/v1/products", []byte(body))
	if err != nil || r.Status != http.StatusCreated || r.Decode(&product) != nil {
		t.Fatalf("create product: %v %d %s", err, r.Status, r.Body)
	}
	if product["status"] != "proposed" || product["price"] != float64(129900) {
		t.Fatalf("product: %s", r.Body)
	}
	pid := product["product_id"].(string)
	r, err = client.Do(ctx, "PUT", "/open/v1/products/"+pid, []byte(`{"title":"Ceramic pour-over coffee set","images":["https://cdn.example.ph/p/2.jpg","https://cdn.example.ph/p/3.jpg"]}`))
	if err != nil || r.Status != http.StatusOK || r.Decode(&product) != nil || product["name"] != "Ceramic pour-over coffee set" || len(product["images"].([]any)) != 2 {
		t.Fatalf("update product: %v %d %s", err, r.Status, r.Body)
	}
	var products []map[string]any
	if r, err = client.Do(ctx, "GET", "/open/v1/products?status=proposed", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.DecodeList(&products); err != nil || len(products) == 0 || products[0]["product_id"] != pid {
		t.Fatalf("list products: %v %s", err, r.Body)
	}

	// SIGTERM drains both tiers and they exit cleanly.
	for _, p := range []*exec.Cmd{pl.gateway, pl.core} {
		_ = p.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- p.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s exited with %v", p.Args[1], err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s did not stop on SIGTERM", p.Args[1])
		}
	}
}

type leafCategory struct {
	id              string
	attributeValues string
}

// findLeaf picks a category that is nobody's parent and builds values for
// its mandatory attributes from what the attributes endpoint says.
func findLeaf(t *testing.T, c *sdk.Client) leafCategory {
	t.Helper()
	ctx := context.Background()
	var all []map[string]any
	for cursor := ""; ; {
		q := "/open/v1/categories?limit=100"
		if cursor != "" {
			q += "&cursor=" + cursor
		}
		r, err := c.Do(ctx, "GET", q, nil)
		if err != nil {
			t.Fatal(err)
		}
		var page []map[string]any
		meta, err := r.DecodeList(&page)
		if err != nil {
			t.Fatalf("categories: %v %s", err, r.Body)
		}
		all = append(all, page...)
		if meta.NextCursor == "" {
			break
		}
		cursor = meta.NextCursor
	}
	parents := map[string]bool{}
	for _, cat := range all {
		if p, ok := cat["parent_category_id"].(string); ok {
			parents[p] = true
		}
	}
	for _, cat := range all {
		id := cat["category_id"].(string)
		if parents[id] || cat["parent_category_id"] == nil {
			continue
		}
		r, err := c.Do(ctx, "GET", "/open/v1/categories/"+id+"/attributes", nil)
		if err != nil {
			t.Fatal(err)
		}
		var attrs []map[string]any
		if err := r.Decode(&attrs); err != nil {
			t.Fatal(err)
		}
		values, ok := mandatoryValues(attrs)
		if ok {
			return leafCategory{id: id, attributeValues: values}
		}
	}
	t.Fatal("no leaf category with attributes this test can fill")
	return leafCategory{}
}

func mandatoryValues(attrs []map[string]any) (string, bool) {
	var out []map[string]any
	for _, a := range attrs {
		if a["mandatory"] != true {
			continue
		}
		var v any
		allowed, _ := a["allowed_values"].([]any)
		switch a["input_type"] {
		case "TEXT":
			v = "Generic"
		case "NUMBER":
			v = 12
		case "BOOLEAN":
			v = true
		case "DATE":
			v = "2027-01-31"
		case "SELECT":
			if len(allowed) == 0 {
				return "", false
			}
			v = allowed[0]
		case "MULTIVALUE":
			if len(allowed) == 0 {
				return "", false
			}
			v = []any{allowed[0]}
		default:
			return "", false
		}
		out = append(out, map[string]any{"attribute_id": a["attribute_id"], "value": v})
	}
	b, _ := json.Marshal(out)
	if out == nil {
		b = []byte("[]")
	}
	return string(b), true
}

func runOnce(t *testing.T, bin string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mpserver %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func start(t *testing.T, bin string, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		if t.Failed() {
			t.Logf("mpserver %s output:\n%s", args[0], out.String())
		}
	})
	return cmd
}

func freeAddr(t *testing.T) string {
	t.Helper()
	addr, err := loopback.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

func waitReady(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s never became ready", url)
}

func redisAddr() string {
	if a := os.Getenv("REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

func redisAnswers() bool {
	c, err := net.DialTimeout("tcp", redisAddr(), time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	buf := make([]byte, 7)
	n, _ := c.Read(buf)
	return strings.HasPrefix(string(buf[:n]), "+PONG")
}

// startPlatform builds mpserver, migrates a fresh PostgreSQL database, seeds
// the sandbox and starts core and the gateway as separate processes (the
// gateway on Redis when it answers; CI requires it); extraEnv is added to
// every process's environment.
func startPlatform(t *testing.T, extraEnv ...string) platform {
	t.Helper()
	dsn := dbtest.EmptyPostgres(t)
	dir := t.TempDir()
	bin := builtMPServer(t)
	secretKey := auth.NewKey()
	token := "e2e-internal-token-" + fmt.Sprint(time.Now().UnixNano())
	env := append(os.Environ(),
		"MP_DATABASE_URL="+dsn, "MP_SECRET_KEY="+secretKey, "MP_GATEWAY_TOKEN="+token, "MP_DB_DRIVER=postgres", "MP_LOG_LEVEL=warn")
	env = append(env, extraEnv...)
	runOnce(t, bin, env, "migrate")
	grpcAddr, coreMetrics, httpAddr, gwMetrics := freeAddr(t), freeAddr(t), freeAddr(t), freeAddr(t)
	credsPath := filepath.Join(dir, "credentials.json")
	runOnce(t, bin, env, "admin", "seed-sandbox", "--credentials-file", credsPath, "--base-url", "http://"+httpAddr, "--grpc-address", grpcAddr)

	core := start(t, bin, env, "core", "--grpc-addr", grpcAddr, "--metrics-addr", coreMetrics)
	gwArgs := []string{"gateway", "--http-addr", httpAddr, "--metrics-addr", gwMetrics, "--core-addr", grpcAddr}
	if redisAnswers() {
		gwArgs = append(gwArgs, "--redis-url", "redis://"+redisAddr()+"/0")
	} else if os.Getenv("CI") == "true" {
		t.Fatal("Redis is required in CI")
	}
	gw := start(t, bin, env, gwArgs...)
	waitReady(t, "http://"+coreMetrics+"/readyz")
	// Probes live on the internal port; the partner port is the gateway's.
	waitReady(t, "http://"+gwMetrics+"/readyz")

	creds, err := sdk.LoadCredentials(credsPath)
	if err != nil {
		t.Fatal(err)
	}
	return platform{bin: bin, env: env, creds: creds, core: core, gateway: gw}
}

// platform is what startPlatform started.
type platform struct {
	bin   string
	env   []string
	creds *sdk.Credentials
	// core and gateway are the tiers' processes.
	core, gateway *exec.Cmd
}

// mpserverBuild is the binary the process tests start, built once per test
// process (and removed by TestMain).
var mpserverBuild struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// builtMPServer builds mpserver once, with the flags of `make build`
// (static, -trimpath): CI's deploy check has just compiled the same
// packages in that configuration, so this is a link from the build cache
// instead of a third compilation of the whole tree.
func builtMPServer(t *testing.T) string {
	t.Helper()
	b := &mpserverBuild
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "mpserver-e2e-"); b.err != nil {
			return
		}
		b.bin = filepath.Join(b.dir, "mpserver")
		build := exec.Command("go", "build", "-trimpath", "-o", b.bin, ".")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("build: %w\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if mpserverBuild.dir != "" {
		_ = os.RemoveAll(mpserverBuild.dir)
	}
	os.Exit(code)
}
