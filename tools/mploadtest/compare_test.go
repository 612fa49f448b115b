package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// TestMain lets the test binary stand in for mploadtest: compare starts the
// baseline as a child of its own executable, which under go test is this
// binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "baseline" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func redisAddr() string {
	if a := os.Getenv("REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

func requireRedis(t *testing.T) string {
	t.Helper()
	addr := redisAddr()
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		c.Close()
		return addr
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("Redis is required under CI=true: %v", err)
	}
	t.Skipf("Redis not available at %s: %v", addr, err)
	return ""
}

// TestCompareProcedure runs the whole procedure briefly: it builds mpserver,
// starts both tiers and the baseline on a fresh database, loads them, and
// must leave neither processes nor the database behind.
func TestCompareProcedure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mpserver and starts three servers")
	}
	cfg := compareConfig{
		adminDSN: dbtest.RequirePostgres(t), redisAddr: requireRedis(t), repo: "../..",
		duration: time.Second, workers: 4, rate: 100, rateDuration: time.Second,
		logLevel: "warn", rateLimit: 6_000_000,
		// The per-app and per-account overrides exercise provisioning; the
		// gateway flags are the default path of real runs.
		ceilings: "overrides",
	}
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	var out, log bytes.Buffer
	res, err := runCompare(context.Background(), cfg, &out, &log)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.String(), log.String())
	}
	if res.App != "load" {
		t.Fatalf("app %q, want the provisioned one", res.App)
	}
	if res.OrderIDs == 0 || res.Shape.Identical != res.OrderIDs {
		t.Fatalf("answers differ: %+v", res.Shape)
	}
	for _, p := range []*phaseResult{res.PlatformMax, res.BaselineMax, res.PlatformRate} {
		if p.Summary.Successes == 0 || p.Summary.Check(nil) != nil {
			t.Fatalf("%s: %+v", p.Summary.Name, p.Summary)
		}
	}
	if res.Ratio <= 0 || res.PlatformMax.GatewayMean <= 0 || res.PlatformMax.CoreMean <= 0 {
		t.Fatalf("ratio %v, tier means %s %s", res.Ratio, res.PlatformMax.GatewayMean, res.PlatformMax.CoreMean)
	}
	for _, want := range []string{"throughput ratio", "byte-identical", "platform at 100 req/s"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, cfg.adminDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var left int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname LIKE 'mploadtest\_%'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	// Another run may be going on in parallel on a shared machine; this
	// run's own database is what must be gone.
	var mine int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, lastDatabase(log.String())).Scan(&mine); err != nil || mine != 0 {
		t.Fatalf("database left behind: %v %d (all: %d)", err, mine, left)
	}
}

// lastDatabase finds the database name the procedure announced.
func lastDatabase(log string) string {
	_, rest, ok := strings.Cut(log, "creating database ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(name)
}

func TestCompareConfigValidation(t *testing.T) {
	parse := func(args ...string) error {
		var c compareConfig
		fs := flag.NewFlagSet("compare", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		c.register(fs)
		if err := fs.Parse(args); err != nil {
			return err
		}
		return c.validate()
	}
	if err := parse(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, args := range [][]string{
		{"--redis-addr", "10.1.1.1:6379"},
		{"--admin-dsn", "postgres://postgres@db.internal:5432/postgres"},
		{"--duration", "4m"},
		{"--workers", "0"},
		{"--rate", "0"},
		{"--rate-limit", "-1"},
		{"--ceilings", "sometimes"},
	} {
		if err := parse(args...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestLoopbackChecks(t *testing.T) {
	for _, a := range []string{"127.0.0.1:1", "127.9.9.9:80", "[::1]:8080"} {
		if err := requireLoopbackAddr(a); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	for _, a := range []string{"0.0.0.0:80", ":8080", "localhost:80", "192.168.0.1:80", "example.com:80", "127.0.0.1"} {
		if err := requireLoopbackAddr(a); err == nil {
			t.Errorf("%s accepted", a)
		}
	}
}

func TestFirstDifference(t *testing.T) {
	got := firstDifference("ord_1", []byte(`{"a":1,"b":2}`), []byte(`{"a":1,"b":3}`))
	if !strings.Contains(got, "at byte 11") || !strings.Contains(got, `"b":2}`) || !strings.Contains(got, `"b":3}`) {
		t.Fatal(got)
	}
}

func TestPerfGrouping(t *testing.T) {
	for sym, want := range map[string]string{
		"runtime.mallocgc":           "runtime",
		"runtime.(*mcache).nextFree": "runtime",
		"github.com/jackc/pgx/v5/pgtype.(*TimestamptzCodec).PlanScan":             "github.com/jackc/pgx",
		"github.com/mallplatform/partnerapi/gateway/admission.(*Redis).Admit":     "partnerapi/gateway/admission",
		"google.golang.org/grpc/internal/transport.(*http2Server).operateHeaders": "google.golang.org/grpc",
		"golang.org/x/net/http2.(*Framer).ReadFrame":                              "golang.org/x/net",
		"net/http.(*conn).serve":                    "net/http",
		"slices.SortFunc[go.shape.string]":          "slices",
		"entgo.io/ent/dialect/sql.(*Builder).Ident": "entgo.io/ent",
		"[kernel]": "[kernel]",
		"":         "[unknown]",
	} {
		if got := perfGroup(sym); got != want {
			t.Errorf("%q: %q, want %q", sym, got, want)
		}
	}
}

func TestParsePerfScript(t *testing.T) {
	script := `100 
	          93e7e runtime.memclrNoHeapPointers
	          2295c5 entgo.io/ent/dialect/sql.(*Builder).Ident
	          3000 runtime.goexit.abi0

100 
	ffffffff816dd6f5 __d_lookup_rcu
	          d00e internal/runtime/syscall/linux.Syscall6
	          1000 runtime.gcBgMarkWorker
	          3000 runtime.goexit.abi0

200 
	          93e7e github.com/redis/rueidis.(*singleClient).Do
`
	procs, err := parsePerfScript(strings.NewReader(script), map[int]string{100: "core"})
	if err != nil || len(procs) != 2 {
		t.Fatalf("%+v %v", procs, err)
	}
	core := procs[1]
	if procs[0].Name != "200" || core.Name != "core" || core.Samples != 2 || core.GC != 0.5 || core.Kernel != 0.5 {
		t.Fatalf("%+v", procs)
	}
	if len(core.Inclusive) != 2 || core.Inclusive[0].Group != "entgo.io/ent" || core.Inclusive[1].Group != "internal/runtime" {
		t.Fatalf("inclusive %+v", core.Inclusive)
	}
	if core.Self[0].Share != 0.5 {
		t.Fatalf("self %+v", core.Self)
	}
}
