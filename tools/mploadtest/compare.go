package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/sdk"
)

// compareConfig is the whole procedure: a fresh database, the platform's
// two tiers as separate processes, the baseline, and the load runs.
type compareConfig struct {
	adminDSN     string
	redisAddr    string
	mpserver     string
	repo         string
	duration     time.Duration
	warmup       time.Duration
	workers      int
	rate         int
	rateDuration time.Duration
	// baselineAtRate also runs the baseline at --rate, for the latency
	// floor of the same load.
	baselineAtRate bool
	logLevel       string
	dbMaxConns     int
	// rateLimit is the per-minute ceiling given to the load app (and its
	// account) so that the platform's rate limits never refuse the load.
	rateLimit int
	// ceilings says how rateLimit is applied: "flags" (the gateway's
	// --app-rate-per-minute and --account-rate-per-minute), "overrides" (a
	// provisioned app and account with per-minute overrides), or "auto"
	// (flags when the gateway has them).
	ceilings string
	jsonPath string
	keep     bool
	// perfDir, when set, receives a perf profile of gateway and core
	// during the platform's max-throughput run.
	perfDir string
	// baselineSlack is the baseline's timer slack (0: Linux's default, as
	// a bare net/http server runs); mpserver's roles take MP_TIMER_SLACK.
	baselineSlack time.Duration
}

// maxCompareLoad bounds the load time of one compare run.
const maxCompareLoad = 8 * time.Minute

func (c *compareConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.adminDSN, "admin-dsn", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL URL allowed to CREATE and DROP DATABASE (loopback)")
	fs.StringVar(&c.redisAddr, "redis-addr", "127.0.0.1:6379", "Redis for the gateway's nonces and rate buckets (loopback)")
	fs.StringVar(&c.mpserver, "mpserver", "", "mpserver binary to run (default: build ./cmd/mpserver in --repo)")
	fs.StringVar(&c.repo, "repo", ".", "module root to build mpserver from")
	fs.DurationVar(&c.duration, "duration", 15*time.Second, "length of each max-throughput run")
	fs.DurationVar(&c.warmup, "warmup", 5*time.Second, "max-throughput warm-up of each server before measuring")
	fs.IntVar(&c.workers, "workers", 16, "connections of the max-throughput runs (the same for both servers)")
	fs.IntVar(&c.rate, "rate", 1000, "request rate of the latency run against the platform")
	fs.DurationVar(&c.rateDuration, "rate-duration", 15*time.Second, "length of the latency run")
	fs.BoolVar(&c.baselineAtRate, "baseline-at-rate", true, "also run the baseline at --rate for comparison")
	fs.StringVar(&c.logLevel, "log-level", "info", "MP_LOG_LEVEL of core and gateway (info is what deployments run: one access-log line per request in each tier)")
	fs.IntVar(&c.dbMaxConns, "db-max-conns", 0, "PostgreSQL pool size of core and of the baseline (0: pgx's default, max(4, cores))")
	fs.IntVar(&c.rateLimit, "rate-limit", 6_000_000, "per-minute ceiling of the load app and its account")
	fs.StringVar(&c.ceilings, "ceilings", "auto", "how the rate ceilings are raised: flags (gateway flags, app \"full\"), overrides (new app and account with overrides), auto")
	fs.StringVar(&c.jsonPath, "json", "", "also write every figure as JSON to this file")
	fs.StringVar(&c.perfDir, "perf-dir", "", "profile gateway and core with Linux perf during the platform's max-throughput run and keep the data here")
	fs.DurationVar(&c.baselineSlack, "baseline-timer-slack", 0, "timer slack of the baseline's threads (0: Linux's default; the tiers run with mpserver's MP_TIMER_SLACK, 1ms unless set)")
	fs.BoolVar(&c.keep, "keep", false, "keep the database and the work directory (logs, credentials) afterwards")
}

func (c *compareConfig) validate() error {
	var errs []error
	if err := requireLoopbackAddr(c.redisAddr); err != nil {
		errs = append(errs, fmt.Errorf("--redis-addr: %w", err))
	}
	if u, err := url.Parse(c.adminDSN); err != nil || requireLoopbackAddr(hostWithPort(u)) != nil {
		errs = append(errs, errors.New("--admin-dsn must be a postgres:// URL to a loopback address"))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--duration", c.duration}, {"--rate-duration", c.rateDuration}} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive", d.name))
		}
	}
	if c.warmup < 0 {
		errs = append(errs, errors.New("--warmup must not be negative"))
	}
	total := 2*c.warmup + 2*c.duration + c.rateDuration
	if c.baselineAtRate {
		total += c.rateDuration
	}
	if total > maxCompareLoad {
		errs = append(errs, fmt.Errorf("the runs add up to %s; at most %s", total, maxCompareLoad))
	}
	if c.workers <= 0 || c.workers > maxWorkers {
		errs = append(errs, fmt.Errorf("--workers must be between 1 and %d", maxWorkers))
	}
	if c.rate <= 0 || c.rate > maxRate {
		errs = append(errs, fmt.Errorf("--rate must be between 1 and %d", maxRate))
	}
	if c.rateLimit <= 0 {
		errs = append(errs, errors.New("--rate-limit must be positive"))
	}
	switch c.ceilings {
	case "auto", "flags", "overrides", "":
	default:
		errs = append(errs, fmt.Errorf("--ceilings %q: want auto, flags or overrides", c.ceilings))
	}
	if c.perfDir != "" {
		if err := perfAvailable(); err != nil {
			errs = append(errs, fmt.Errorf("--perf-dir: %w", err))
		}
	}
	return errors.Join(errs...)
}

func hostWithPort(u *url.URL) string {
	if u.Port() == "" {
		return u.Hostname() + ":5432"
	}
	return u.Host
}

// compareResult is everything the procedure measured.
type compareResult struct {
	Machine        string         `json:"machine"`
	Cores          int            `json:"cores"`
	Workers        int            `json:"workers"`
	LogLevel       string         `json:"log_level"`
	RateLimitFlags bool           `json:"gateway_has_rate_limit_flags"`
	App            string         `json:"app"`
	OrderIDs       int            `json:"order_ids"`
	Shape          shapeReport    `json:"shape"`
	PlatformMax    *phaseResult   `json:"platform_max"`
	BaselineMax    *phaseResult   `json:"baseline_max"`
	Ratio          float64        `json:"throughput_ratio"`
	PlatformRate   *phaseResult   `json:"platform_rate"`
	BaselineRate   *phaseResult   `json:"baseline_rate,omitempty"`
	Targets        map[string]any `json:"targets"`
}

// The targets a compare run is judged against (docs/performance.md): the
// platform's share of the bare server's throughput at maximum load, and its
// p99 at --rate.
const (
	targetRatio = 0.65
	targetP99   = 3 * time.Millisecond
)

// phaseResult is one measured run with the CPU it cost and, for the
// platform, the mean time each tier spent per request by its own metrics.
type phaseResult struct {
	Summary *Summary  `json:"summary"`
	CPU     cpuReport `json:"cpu"`
	// GatewayMean is mp_gateway_request_duration_seconds for the route;
	// CoreMean is mp_core_rpc_duration_seconds for GetOrder (seller-token
	// check and the three reads; without gRPC decoding).
	GatewayMean time.Duration `json:"gateway_mean_ns,omitempty"`
	CoreMean    time.Duration `json:"core_mean_ns,omitempty"`
	// Profile is perf's view of gateway and core, when recorded.
	Profile []perfProcess `json:"profile,omitempty"`
}

// compareEnv is what the procedure started and must clean up.
type compareEnv struct {
	cfg      compareConfig
	work     string
	adminDSN string
	dbName   string
	children []*child
	named    map[int]string
	stderr   io.Writer
}

func (e *compareEnv) cleanup() {
	for i := len(e.children) - 1; i >= 0; i-- {
		if err := e.children[i].stop(25 * time.Second); err != nil {
			fmt.Fprintf(e.stderr, "stopping %s: %v\n", e.children[i].name, err)
		}
	}
	if e.keep() {
		fmt.Fprintf(e.stderr, "kept database %s and %s\n", e.dbName, e.work)
		return
	}
	if e.dbName != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := dropDatabase(ctx, e.adminDSN, e.dbName); err != nil {
			fmt.Fprintf(e.stderr, "dropping database %s: %v\n", e.dbName, err)
		}
	}
	_ = os.RemoveAll(e.work)
}

func (e *compareEnv) keep() bool { return e.cfg.keep }

func (e *compareEnv) start(name, bin string, args, env []string) (*child, error) {
	c, err := startChild(name, bin, args, env, filepath.Join(e.work, name+".log"))
	if err != nil {
		return nil, err
	}
	e.children = append(e.children, c)
	e.named[c.pid()] = name
	return c, nil
}

func compareCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg compareConfig
	if err := parseConfig("compare", args, stderr, &cfg); err != nil {
		return err
	}
	res, err := runCompare(ctx, cfg, stdout, stderr)
	if res != nil && cfg.jsonPath != "" {
		if werr := writeJSON(cfg.jsonPath, res); werr != nil && err == nil {
			err = werr
		}
	}
	return err
}

// runCompare does the whole procedure and prints the figures: set up a
// seeded database, start the tiers and the baseline, check that both answer
// the same bytes, then measure.
func runCompare(ctx context.Context, cfg compareConfig, stdout, stderr io.Writer) (*compareResult, error) {
	work, err := os.MkdirTemp("", "mploadtest-")
	if err != nil {
		return nil, err
	}
	e := &compareEnv{cfg: cfg, work: work, adminDSN: cfg.adminDSN, named: map[int]string{os.Getpid(): "load generator"}, stderr: stderr}
	defer e.cleanup()
	c := &comparison{e: e, cfg: cfg, stdout: stdout,
		res: &compareResult{Machine: machineName(), Cores: numCPU(), Workers: cfg.workers, LogLevel: cfg.logLevel}}
	for _, phase := range []func(context.Context) error{c.prepare, c.chooseCeilings, c.startServers, c.connect, c.measure} {
		if err := phase(ctx); err != nil {
			if c.res.OrderIDs == 0 {
				return nil, err
			}
			return c.res, err
		}
	}
	return c.res, c.verdict()
}

// comparison is the state runCompare's phases share.
type comparison struct {
	e      *compareEnv
	cfg    compareConfig
	stdout io.Writer
	res    *compareResult

	bin, self, dsn string
	env            []string
	addrs          map[string]string
	credsPath      string
	creds          *sdk.Credentials
	gwArgs         []string
	core, gateway  *child

	platform, baseline *sdk.Client
	ids                []string
}

func (c *comparison) step(format string, a ...any) {
	fmt.Fprintf(c.e.stderr, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, a...))
}

func (c *comparison) gatewayURL() string  { return "http://" + c.addrs["http"] }
func (c *comparison) baselineURL() string { return "http://" + c.addrs["baseline"] }

// prepare builds mpserver, creates the database, migrates and seeds it.
func (c *comparison) prepare(ctx context.Context) error {
	c.bin = c.cfg.mpserver
	if c.bin == "" {
		c.step("building mpserver")
		c.bin = filepath.Join(c.e.work, "mpserver")
		build := exec.CommandContext(ctx, "go", "build", "-o", c.bin, "./cmd/mpserver")
		build.Dir = c.cfg.repo
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("build mpserver: %w\n%s", err, out)
		}
	}
	var err error
	if c.self, err = os.Executable(); err != nil {
		return err
	}
	c.e.dbName = "mploadtest_" + randomHex(6)
	c.step("creating database %s", c.e.dbName)
	if c.dsn, err = createDatabase(ctx, c.cfg.adminDSN, c.e.dbName); err != nil {
		c.e.dbName = ""
		return err
	}
	c.env = serverEnv(c.dsn, c.cfg.logLevel)
	c.addrs = map[string]string{}
	for _, k := range []string{"grpc", "core-metrics", "http", "gateway-metrics", "baseline"} {
		if c.addrs[k], err = freeAddr(); err != nil {
			return err
		}
	}
	c.step("migrating and seeding the sandbox")
	if _, err := runOnce(ctx, c.bin, c.env, "migrate"); err != nil {
		return err
	}
	c.credsPath = filepath.Join(c.e.work, "sandbox-credentials.json")
	if _, err := runOnce(ctx, c.bin, c.env, "admin", "seed-sandbox", "--credentials-file", c.credsPath, "--base-url", c.gatewayURL()); err != nil {
		return err
	}
	if c.creds, err = loadCredentials(c.credsPath, c.gatewayURL()); err != nil {
		return err
	}
	if len(c.creds.Sellers) == 0 {
		return errors.New("seed-sandbox wrote no seller")
	}
	return nil
}

// chooseCeilings raises the rate ceilings for the load app: with the
// gateway's flags when it has them, otherwise with per-app and per-account
// overrides, as an operator would for a large partner.
func (c *comparison) chooseCeilings(ctx context.Context) error {
	cfg, res := c.cfg, c.res
	c.gwArgs = []string{"gateway", "--http-addr", c.addrs["http"], "--metrics-addr", c.addrs["gateway-metrics"],
		"--core-addr", c.addrs["grpc"], "--redis-addr", cfg.redisAddr,
		// The pre-authentication limiter has a per-address default; every
		// request here comes from 127.0.0.1.
		"--ip-rate-per-minute", strconv.Itoa(cfg.rateLimit)}
	help := gatewayHelp(ctx, c.bin, c.env)
	res.RateLimitFlags = strings.Contains(help, "-app-rate-per-minute") && strings.Contains(help, "-account-rate-per-minute")
	if cfg.ceilings == "flags" && !res.RateLimitFlags {
		return errors.New("--ceilings flags: this mpserver's gateway role has no --app-rate-per-minute and --account-rate-per-minute")
	}
	if res.RateLimitFlags && cfg.ceilings != "overrides" {
		res.App = sdk.AppFull
		c.gwArgs = append(c.gwArgs, "--app-rate-per-minute", strconv.Itoa(cfg.rateLimit), "--account-rate-per-minute", strconv.Itoa(cfg.rateLimit))
		fmt.Fprintf(c.stdout, "rate ceilings: gateway --app-rate-per-minute and --account-rate-per-minute %d, app %q\n", cfg.rateLimit, res.App)
	} else {
		c.step("provisioning an app and an account with %d/min overrides", cfg.rateLimit)
		if err := provisionLoadApp(ctx, c.bin, c.env, c.creds, cfg.rateLimit); err != nil {
			return err
		}
		res.App = "load"
		if err := c.creds.Save(c.credsPath); err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "rate ceilings: per-app and per-account overrides of %d/min, app %q (gateway has the flags: %t)\n", cfg.rateLimit, res.App, res.RateLimitFlags)
	}
	fmt.Fprintf(c.stdout, "pre-authentication limit per address: gateway --ip-rate-per-minute %d\n", cfg.rateLimit)
	return nil
}

// startServers starts core, the gateway and the baseline and waits until
// each is ready.
func (c *comparison) startServers(ctx context.Context) error {
	c.step("starting core, gateway and baseline")
	coreArgs := []string{"core", "--grpc-addr", c.addrs["grpc"], "--metrics-addr", c.addrs["core-metrics"]}
	baseArgs := []string{"baseline", "--database-url", c.dsn, "--addr", c.addrs["baseline"],
		"--timer-slack", c.cfg.baselineSlack.String()}
	if c.cfg.dbMaxConns > 0 {
		coreArgs = append(coreArgs, "--db-max-conns", strconv.Itoa(c.cfg.dbMaxConns))
		baseArgs = append(baseArgs, "--db-max-conns", strconv.Itoa(c.cfg.dbMaxConns))
	}
	var err error
	if c.core, err = c.e.start("core", c.bin, coreArgs, c.env); err != nil {
		return err
	}
	if c.gateway, err = c.e.start("gateway", c.bin, c.gwArgs, c.env); err != nil {
		return err
	}
	base, err := c.e.start("baseline", c.self, baseArgs, os.Environ())
	if err != nil {
		return err
	}
	for _, r := range []struct {
		c   *child
		url string
	}{{c.core, "http://" + c.addrs["core-metrics"] + "/readyz"}, {c.gateway, "http://" + c.addrs["gateway-metrics"] + "/readyz"}, {base, c.baselineURL() + "/healthz"}} {
		if err := waitReady(ctx, r.c, r.url, 30*time.Second); err != nil {
			return err
		}
	}
	return nil
}

// connect makes the two clients, lists the seller's orders and checks that
// the platform and the baseline answer every one with the same bytes.
func (c *comparison) connect(ctx context.Context) error {
	var err error
	if c.platform, err = c.creds.Client(c.res.App, 0); err != nil {
		return err
	}
	bc := *c.creds
	bc.BaseURL = c.baselineURL()
	if c.baseline, err = bc.Client(c.res.App, 0); err != nil {
		return err
	}
	if c.ids, err = listOrderIDs(ctx, c.platform); err != nil {
		return err
	}
	if len(c.ids) == 0 {
		return fmt.Errorf("seller %s has no orders: the sandbox seed wrote none", c.creds.Sellers[0].SellerID)
	}
	c.res.OrderIDs = len(c.ids)
	c.step("%d order ids of seller %s; comparing answers", len(c.ids), c.creds.Sellers[0].SellerID)
	if c.res.Shape, err = compareShapes(ctx, c.platform, c.baseline, c.ids); err != nil {
		return err
	}
	c.res.Shape.write(c.stdout)
	return nil
}

// measure warms both servers up, then runs both at maximum throughput and
// at the latency run's fixed rate.
func (c *comparison) measure(ctx context.Context) error {
	cfg, res, e := c.cfg, c.res, c.e
	maxCfg := runConfig{max: true, workers: cfg.workers, timeout: 10 * time.Second}
	if cfg.warmup > 0 {
		c.step("warming up (%s each)", cfg.warmup)
		for _, w := range []struct {
			name   string
			client *sdk.Client
		}{{"platform warm-up", c.platform}, {"baseline warm-up", c.baseline}} {
			wc := maxCfg
			wc.duration = cfg.warmup
			s, err := attack(ctx, wc, w.client, c.ids, w.name)
			if err != nil {
				return err
			}
			if err := s.Check(nil); err != nil {
				return err
			}
		}
	}
	metrics := tierMetrics{gateway: "http://" + c.addrs["gateway-metrics"] + "/metrics", core: "http://" + c.addrs["core-metrics"] + "/metrics"}
	maxCfg.duration = cfg.duration
	c.step("platform at max throughput, %d connections, %s", cfg.workers, cfg.duration)
	var profile []int
	if cfg.perfDir != "" {
		profile = []int{c.gateway.pid(), c.core.pid()}
	}
	var err error
	if res.PlatformMax, err = e.measure(ctx, maxCfg, c.platform, c.ids, "platform (gateway -> core -> PostgreSQL), max throughput", &metrics, profile); err != nil {
		return err
	}
	c.step("baseline at max throughput, %d connections, %s", cfg.workers, cfg.duration)
	if res.BaselineMax, err = e.measure(ctx, maxCfg, c.baseline, c.ids, "baseline (net/http + pgx), max throughput", nil, nil); err != nil {
		return err
	}
	if res.BaselineMax.Summary.Throughput > 0 {
		res.Ratio = res.PlatformMax.Summary.Throughput / res.BaselineMax.Summary.Throughput
	}
	rateCfg := runConfig{rate: cfg.rate, duration: cfg.rateDuration, timeout: 10 * time.Second}
	c.step("platform at %d req/s, %s", cfg.rate, cfg.rateDuration)
	if res.PlatformRate, err = e.measure(ctx, rateCfg, c.platform, c.ids, fmt.Sprintf("platform at %d req/s", cfg.rate), &metrics, nil); err != nil {
		return err
	}
	if cfg.baselineAtRate {
		c.step("baseline at %d req/s, %s", cfg.rate, cfg.rateDuration)
		if res.BaselineRate, err = e.measure(ctx, rateCfg, c.baseline, c.ids, fmt.Sprintf("baseline at %d req/s", cfg.rate), nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// verdict prints every phase and the targets, and fails when any answer of
// any phase was not a 200.
func (c *comparison) verdict() error {
	res := c.res
	phases := []*phaseResult{res.PlatformMax, res.BaselineMax, res.PlatformRate, res.BaselineRate}
	for _, p := range phases {
		if p != nil {
			p.write(c.stdout)
		}
	}
	res.Targets = map[string]any{
		"throughput_ratio_at_least_" + strconv.FormatFloat(targetRatio, 'f', -1, 64): res.Ratio >= targetRatio,
		"p99_under_" + targetP99.String() + "_at_rate":                               res.PlatformRate.Summary.Latency.P99 < targetP99,
	}
	res.writeVerdict(c.stdout, c.cfg.rate)
	var errs []error
	for _, p := range phases {
		if p != nil {
			errs = append(errs, p.Summary.Check(nil))
		}
	}
	return errors.Join(errs...)
}

// gatewayHelp returns what "mpserver gateway -h" printed on standard error
// (the flag package prints usage there and exits non-zero).
func gatewayHelp(ctx context.Context, bin string, env []string) string {
	cmd := exec.CommandContext(ctx, bin, "gateway", "-h")
	cmd.Env = env
	out, _ := cmd.CombinedOutput()
	return string(out)
}

type tierMetrics struct{ gateway, core string }

const (
	gatewayHistogram = "mp_gateway_request_duration_seconds"
	coreHistogram    = "mp_core_rpc_duration_seconds"
)

func (m *tierMetrics) scrape(ctx context.Context) (gw, core histTotals, err error) {
	gw, err = scrapeHistogram(ctx, m.gateway, gatewayHistogram, map[string]string{"route": "/open/v1/orders/{id}", "status": "200"})
	if err != nil {
		return
	}
	core, err = scrapeHistogram(ctx, m.core, coreHistogram, map[string]string{"method": "/mp.orders.v1.OrdersService/GetOrder", "code": "OK"})
	return
}

// measure runs one load run with CPU accounting around it and, when m is
// given, the tiers' own latency metrics; with profile, perf records those
// processes for the length of the run.
func (e *compareEnv) measure(ctx context.Context, cfg runConfig, client *sdk.Client, ids []string, name string, m *tierMetrics, profile []int) (*phaseResult, error) {
	var gw0, core0 histTotals
	var err error
	if m != nil {
		if gw0, core0, err = m.scrape(ctx); err != nil {
			return nil, err
		}
	}
	before, err := takeCPUSnapshot()
	if err != nil {
		return nil, err
	}
	var perfWait func() error
	perfData := filepath.Join(e.cfg.perfDir, "platform.perf.data")
	if len(profile) > 0 {
		if err := os.MkdirAll(e.cfg.perfDir, 0o755); err != nil {
			return nil, err
		}
		if perfWait, err = startPerf(ctx, perfData, profile, cfg.duration); err != nil {
			return nil, err
		}
	}
	s, err := attack(ctx, cfg, client, ids, name)
	if err != nil {
		if perfWait != nil {
			_ = perfWait()
		}
		return nil, err
	}
	after, err := takeCPUSnapshot()
	if err != nil {
		return nil, err
	}
	p := &phaseResult{Summary: s, CPU: cpuBetween(before, after, e.named)}
	if m != nil {
		gw1, core1, err := m.scrape(ctx)
		if err != nil {
			return nil, err
		}
		p.GatewayMean, p.CoreMean = gw1.minus(gw0).Mean(), core1.minus(core0).Mean()
	}
	if perfWait != nil {
		if err := perfWait(); err != nil {
			return nil, err
		}
		if p.Profile, err = summarizePerf(ctx, perfData, e.named); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *phaseResult) write(w io.Writer) {
	fmt.Fprintln(w)
	p.Summary.Write(w)
	if p.GatewayMean > 0 {
		fmt.Fprintf(w, "  tiers       gateway handler mean %s, of which core GetOrder mean %s (by their own metrics)\n", ms(p.GatewayMean), ms(p.CoreMean))
	}
	p.CPU.write(w, p.Summary.Successes)
	writePerf(w, p.Profile)
}

func (r *compareResult) writeVerdict(w io.Writer, rate int) {
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	pm, bm, pr := r.PlatformMax.Summary, r.BaselineMax.Summary, r.PlatformRate.Summary
	fmt.Fprintln(w)
	fmt.Fprintf(w, "== result (%d cores shared by the load generator and every server; %d connections; core and gateway log level %s)\n", r.Cores, r.Workers, r.LogLevel)
	fmt.Fprintf(w, "platform max throughput   %8.1f req/s  (p50 %s, p99 %s)\n", pm.Throughput, ms(pm.Latency.P50), ms(pm.Latency.P99))
	fmt.Fprintf(w, "baseline max throughput   %8.1f req/s  (p50 %s, p99 %s)\n", bm.Throughput, ms(bm.Latency.P50), ms(bm.Latency.P99))
	fmt.Fprintf(w, "throughput ratio          %8.3f        target >= %g: %s\n", r.Ratio, targetRatio, verdict(r.Ratio >= targetRatio))
	fmt.Fprintf(w, "context switches          %8.1f        per request of the platform (every process), %.1f of the baseline\n",
		r.PlatformMax.CPU.switchesPerRequest(pm.Successes), r.BaselineMax.CPU.switchesPerRequest(bm.Successes))
	fmt.Fprintf(w, "reads and writes          %8.1f        system calls per request of gateway and core together, %.1f of the baseline\n",
		r.PlatformMax.CPU.serverIOCallsPerRequest(pm.Successes), r.BaselineMax.CPU.serverIOCallsPerRequest(bm.Successes))
	fmt.Fprintf(w, "platform at %d req/s    p50 %s  p90 %s  p99 %s  max %s  success %.2f%%  target p99 < %s: %s\n",
		rate, ms(pr.Latency.P50), ms(pr.Latency.P90), ms(pr.Latency.P99), ms(pr.Latency.Max), 100*pr.SuccessRatio(), targetP99, verdict(pr.Latency.P99 < targetP99))
	if r.BaselineRate != nil {
		br := r.BaselineRate.Summary
		fmt.Fprintf(w, "baseline at %d req/s    p50 %s  p90 %s  p99 %s  max %s  success %.2f%%\n",
			rate, ms(br.Latency.P50), ms(br.Latency.P90), ms(br.Latency.P99), ms(br.Latency.Max), 100*br.SuccessRatio())
	}
}

// shapeReport says how the baseline's answers compare with the platform's
// for the same orders.
type shapeReport struct {
	Orders int `json:"orders"`
	// Identical answers are byte for byte the same body.
	Identical int `json:"byte_identical"`
	// SameJSON answers decode to equal values (key order or spacing aside).
	SameJSON      int    `json:"same_json"`
	PlatformBytes int    `json:"platform_bytes"`
	BaselineBytes int    `json:"baseline_bytes"`
	FirstDiff     string `json:"first_difference,omitempty"`
}

func (s shapeReport) write(w io.Writer) {
	fmt.Fprintf(w, "answers: %d orders, %d byte-identical, %d equal as JSON; %d bytes (platform) vs %d bytes (baseline) in total\n",
		s.Orders, s.Identical, s.SameJSON, s.PlatformBytes, s.BaselineBytes)
	if s.FirstDiff != "" {
		fmt.Fprintf(w, "first difference: %s\n", s.FirstDiff)
	}
}

// compareShapes fetches every order from both servers and compares the
// bodies.
func compareShapes(ctx context.Context, platform, baseline *sdk.Client, ids []string) (shapeReport, error) {
	rep := shapeReport{Orders: len(ids)}
	for _, id := range ids {
		path := "/open/v1/orders/" + url.PathEscape(id)
		p, err := platform.Do(ctx, http.MethodGet, path, nil)
		if err != nil {
			return rep, err
		}
		b, err := baseline.Do(ctx, http.MethodGet, path, nil)
		if err != nil {
			return rep, err
		}
		if p.Status != http.StatusOK || b.Status != http.StatusOK {
			return rep, fmt.Errorf("order %s: platform HTTP %d, baseline HTTP %d: %s", id, p.Status, b.Status, p.Body)
		}
		rep.PlatformBytes += len(p.Body)
		rep.BaselineBytes += len(b.Body)
		if bytes.Equal(p.Body, b.Body) {
			rep.Identical++
			rep.SameJSON++
			continue
		}
		var pv, bv any
		if json.Unmarshal(p.Body, &pv) == nil && json.Unmarshal(b.Body, &bv) == nil && reflect.DeepEqual(pv, bv) {
			rep.SameJSON++
		}
		if rep.FirstDiff == "" {
			rep.FirstDiff = firstDifference(id, p.Body, b.Body)
		}
	}
	return rep, nil
}

// firstDifference shows where two bodies part.
func firstDifference(id string, a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-40, 0)
	return fmt.Sprintf("order %s at byte %d: platform …%s… baseline …%s…", id, i, a[from:min(i+40, len(a))], b[from:min(i+40, len(b))])
}

// provisionLoadApp creates an account and a sandbox app, both with a
// per-minute override, authorizes seller 0 for it, and adds it to creds as
// app "load".
func provisionLoadApp(ctx context.Context, bin string, env []string, creds *sdk.Credentials, perMinute int) error {
	limit := strconv.Itoa(perMinute)
	scopes := []string{"orders:read", "customer:email:read"}
	var acc struct {
		AccountID string `json:"account_id"`
	}
	out, err := runOnce(ctx, bin, env, "admin", "create-account", "--name", "Load test", "--email", "loadtest@example.ph", "--rate-limit", limit)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(out, &acc); err != nil || acc.AccountID == "" {
		return fmt.Errorf("create-account printed %q", out)
	}
	var app struct {
		AppID        string `json:"app_id"`
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	out, err = runOnce(ctx, bin, env, "admin", "create-app", "--account", acc.AccountID, "--name", "Load test app",
		"--environment", "sandbox", "--scopes", strings.Join(scopes, ","), "--rate-limit", limit)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(out, &app); err != nil || app.ClientSecret == "" {
		return errors.New("create-app printed no client secret")
	}
	var tok struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	out, err = runOnce(ctx, bin, env, "admin", "authorize-seller", "--app", app.AppID, "--seller", creds.Sellers[0].SellerID, "--scopes", strings.Join(scopes, ","))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(out, &tok); err != nil || tok.AccessToken == "" {
		return errors.New("authorize-seller printed no access token")
	}
	creds.Apps["load"] = sdk.AppCredentials{ClientID: app.ClientID, ClientSecret: app.ClientSecret, Scopes: scopes}
	if creds.Sellers[0].Tokens == nil {
		creds.Sellers[0].Tokens = map[string]sdk.TokenPair{}
	}
	creds.Sellers[0].Tokens["load"] = sdk.TokenPair{AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken}
	return nil
}

// serverEnv is the environment of mpserver: this process's, minus any MP_
// setting that would leak into the run, plus the run's own.
func serverEnv(dsn, logLevel string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MP_") {
			env = append(env, kv)
		}
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return append(env,
		"MP_DATABASE_URL="+dsn,
		"MP_DB_DRIVER=postgres",
		"MP_SECRET_KEY="+base64.StdEncoding.EncodeToString(key),
		"MP_GATEWAY_TOKEN=mploadtest-"+randomHex(16),
		"MP_LOG_LEVEL="+logLevel,
		"MP_LOG_FORMAT=json",
	)
}

func createDatabase(ctx context.Context, adminDSN, name string) (string, error) {
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", fmt.Errorf("connect admin database: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	u, err := url.Parse(adminDSN)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

func dropDatabase(ctx context.Context, adminDSN, name string) error {
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	// FORCE ends connections still open, such as a killed server's.
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	return err
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// machineName describes the CPU for the report.
func machineName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
