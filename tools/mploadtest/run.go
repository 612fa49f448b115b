package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/mallplatform/partnerapi/sdk"
)

// Bounds on one load run, whatever the flags say: the tool must stop by
// itself.
const (
	maxRunDuration = 10 * time.Minute
	maxRate        = 20_000
	maxWorkers     = 512
	// defaultMaxRequests caps a --max run; a 2-core machine does not get
	// near it in maxRunDuration.
	defaultMaxRequests = 5_000_000
	// maxOrderIDs bounds how many ids the targeter cycles over.
	maxOrderIDs = 1000
)

// runConfig is one load run.
type runConfig struct {
	target      string // base URL, http://127.0.0.1:PORT
	credentials string
	app         string
	seller      int
	rate        int
	duration    time.Duration
	workers     int
	max         bool
	maxRequests uint64
	timeout     time.Duration
	// Where the order ids come from: a list here, the database, another
	// base URL serving /open/v1/orders (the platform, when the target is
	// the baseline), or else the target itself.
	ids      []string
	idsDSN   string
	idsURL   string
	allow    map[int]bool
	jsonPath string
	// path is the signed GET's path; "{id}" in it stands for each order id
	// in turn.
	path string
}

// defaultPath is the read the load runs measure unless told otherwise.
const defaultPath = "/open/v1/orders/{id}"

// pathOrDefault is the path to load: the compare procedure builds its runs
// without one.
func (c *runConfig) pathOrDefault() string {
	if c.path == "" {
		return defaultPath
	}
	return c.path
}

func (c *runConfig) register(fs *flag.FlagSet) {
	fs.StringVar(&c.target, "target", "", "base URL to load, e.g. http://127.0.0.1:8080 (loopback only)")
	fs.StringVar(&c.credentials, "credentials", "data/sandbox-credentials.json", "sandbox credential file (apps, sellers, tokens)")
	fs.StringVar(&c.app, "app", sdk.AppFull, "app in the credential file to sign as")
	fs.IntVar(&c.seller, "seller", 0, "seller index in the credential file")
	fs.IntVar(&c.rate, "rate", 0, "requests per second (ignored with --max)")
	fs.DurationVar(&c.duration, "duration", 15*time.Second, "length of the run (at most 10m)")
	fs.IntVar(&c.workers, "workers", 0, "with --max: concurrent connections (default 16); with --rate: initial workers (default 10)")
	fs.BoolVar(&c.max, "max", false, "send as fast as --workers connections allow instead of at --rate")
	fs.Uint64Var(&c.maxRequests, "max-requests", 0, "stop after this many requests (default: rate x duration, or 5,000,000 with --max)")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "per-request timeout")
	fs.Func("ids", "comma-separated order ids to cycle over (default: list them through the API)", func(s string) error {
		c.ids = splitComma(s)
		return nil
	})
	fs.StringVar(&c.idsDSN, "ids-database-url", "", "read the seller's order ids from this PostgreSQL database instead of the API")
	fs.StringVar(&c.idsURL, "ids-from", "", "list the order ids through this platform base URL instead of --target (for a baseline target)")
	fs.Func("allow-status", "comma-separated non-2xx statuses that are expected (e.g. 429); others fail the run", func(s string) error {
		c.allow = map[int]bool{}
		for _, p := range splitComma(s) {
			n, err := strconv.Atoi(p)
			if err != nil || n < 100 || n > 599 {
				return fmt.Errorf("status %q", p)
			}
			c.allow[n] = true
		}
		return nil
	})
	fs.StringVar(&c.jsonPath, "json", "", "also write the summary as JSON to this file")
	fs.StringVar(&c.path, "path", defaultPath, "path (and query) of the signed GET; {id} stands for each order id in turn")
}

func (c *runConfig) validate() error {
	var errs []error
	if c.target == "" {
		errs = append(errs, errors.New("--target is required"))
	} else if err := requireLoopbackURL(c.target); err != nil {
		errs = append(errs, err)
	}
	if c.idsURL != "" {
		if err := requireLoopbackURL(c.idsURL); err != nil {
			errs = append(errs, err)
		}
	}
	if !strings.HasPrefix(c.pathOrDefault(), "/open/v1/") {
		errs = append(errs, errors.New("--path must start with /open/v1/"))
	}
	if c.duration <= 0 || c.duration > maxRunDuration {
		errs = append(errs, fmt.Errorf("--duration must be between 0 and %s", maxRunDuration))
	}
	if !c.max && (c.rate <= 0 || c.rate > maxRate) {
		errs = append(errs, fmt.Errorf("--rate must be between 1 and %d (or use --max)", maxRate))
	}
	if c.workers < 0 || c.workers > maxWorkers {
		errs = append(errs, fmt.Errorf("--workers must be between 1 and %d", maxWorkers))
	}
	if c.timeout <= 0 || c.timeout > time.Minute {
		errs = append(errs, errors.New("--timeout must be between 0 and 1m"))
	}
	return errors.Join(errs...)
}

// requestBound is how many requests the run may send at most.
func (c *runConfig) requestBound() uint64 {
	if c.maxRequests > 0 {
		return c.maxRequests
	}
	if c.max {
		return defaultMaxRequests
	}
	return uint64(c.rate) * uint64((c.duration+time.Second-1)/time.Second)
}

// loadCredentials reads a credential file and points it at base. The file
// the admin role writes may have an empty base_url, which sdk.LoadCredentials
// refuses; the target given on the command line is what counts here anyway.
func loadCredentials(path, base string) (*sdk.Credentials, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c sdk.Credentials
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("credentials %s: %w", path, err)
	}
	c.BaseURL = base
	return &c, nil
}

// listOrderIDs pages through GET /open/v1/orders?limit=100 as the client's
// seller.
func listOrderIDs(ctx context.Context, c *sdk.Client) ([]string, error) {
	var ids []string
	cursor := ""
	for len(ids) < maxOrderIDs {
		q := "/open/v1/orders?limit=100"
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		r, err := c.Do(ctx, http.MethodGet, q, nil)
		if err != nil {
			return nil, err
		}
		var page []struct {
			ID string `json:"id"`
		}
		meta, err := r.DecodeList(&page)
		if err != nil {
			return nil, fmt.Errorf("listing orders: %w (HTTP %d)", err, r.Status)
		}
		for _, o := range page {
			ids = append(ids, o.ID)
		}
		if meta.NextCursor == "" || len(page) == 0 {
			break
		}
		cursor = meta.NextCursor
	}
	if len(ids) > maxOrderIDs {
		ids = ids[:maxOrderIDs]
	}
	return ids, nil
}

// orderIDsFromDB reads the seller's order ids straight from the database.
func orderIDsFromDB(ctx context.Context, dsn, sellerID string) ([]string, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("ids database: %w", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT id FROM orders WHERE seller_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, sellerID, maxOrderIDs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// signedTargeter cycles over ids and signs every request afresh, with a new
// nonce and the current timestamp, as a partner would: the gateway refuses
// a reused nonce, so pre-signed requests cannot be replayed. Signing happens
// inside the measured latency (vegeta starts its clock before calling the
// targeter); it costs a few microseconds.
func signedTargeter(c *sdk.Client, path string, ids []string) vegeta.Targeter {
	var n atomic.Uint64
	return func(t *vegeta.Target) error {
		id := ids[(n.Add(1)-1)%uint64(len(ids))]
		req, err := c.NewRequest(context.Background(), sdk.Request{Method: http.MethodGet, Path: strings.ReplaceAll(path, "{id}", url.PathEscape(id))})
		if err != nil {
			return err
		}
		t.Method = req.Method
		t.URL = req.URL.String()
		t.Header = req.Header
		t.Body = nil
		return nil
	}
}

// boundedPacer stops a run after max requests whatever the pacer inside
// would do.
type boundedPacer struct {
	vegeta.Pacer
	max uint64
}

func (p boundedPacer) Pace(elapsed time.Duration, hits uint64) (time.Duration, bool) {
	if hits >= p.max {
		return 0, true
	}
	return p.Pacer.Pace(elapsed, hits)
}

// attack runs one load run against cfg.target with the given ids and
// returns its summary. It stops at cfg.duration, after requestBound
// requests, or when ctx ends.
func attack(ctx context.Context, cfg runConfig, client *sdk.Client, ids []string, name string) (*Summary, error) {
	if len(ids) == 0 {
		return nil, errors.New("no order ids to request")
	}
	opts := []func(*vegeta.Attacker){
		vegeta.Timeout(cfg.timeout),
		vegeta.KeepAlive(true),
		vegeta.HTTP2(false),
		// A redirect would replay a signed request (spent nonce) elsewhere.
		vegeta.Redirects(vegeta.NoFollow),
		// Never through a proxy: the load stays on this machine.
		vegeta.Proxy(func(*http.Request) (*url.URL, error) { return nil, nil }),
		vegeta.MaxBody(64 << 10),
	}
	var pacer vegeta.Pacer
	if cfg.max {
		w := uint64(cfg.workers)
		if w == 0 {
			w = 16
		}
		// A zero rate with a fixed pool of workers: each worker sends its
		// next request as soon as the previous one is answered, so the
		// concurrency (and connection count) is exactly w.
		pacer = vegeta.ConstantPacer{}
		opts = append(opts, vegeta.Workers(w), vegeta.MaxWorkers(w), vegeta.Connections(int(w)), vegeta.MaxConnections(int(w)))
	} else {
		w := uint64(cfg.workers)
		if w == 0 {
			w = 10
		}
		pacer = vegeta.ConstantPacer{Freq: cfg.rate, Per: time.Second}
		// Workers are added while the target answers slower than the rate
		// needs; the cap keeps a stalled target from costing unbounded
		// goroutines and sockets.
		opts = append(opts, vegeta.Workers(w), vegeta.MaxWorkers(maxWorkers))
	}
	atk := vegeta.NewAttacker(opts...)
	stop := context.AfterFunc(ctx, func() { atk.Stop() })
	defer stop()

	s := newSummary(name)
	if !cfg.max {
		s.TargetRate = cfg.rate
	}
	s.Workers = cfg.workers
	for res := range atk.Attack(signedTargeter(client, cfg.pathOrDefault(), ids), boundedPacer{Pacer: pacer, max: cfg.requestBound()}, cfg.duration, name) {
		s.Add(res)
	}
	s.Close()
	if err := ctx.Err(); err != nil {
		return s, err
	}
	return s, nil
}

// subcommandConfig is a subcommand's flags: registered on its flag set,
// then checked once parsed.
type subcommandConfig interface {
	register(fs *flag.FlagSet)
	validate() error
}

// parseConfig parses a subcommand's arguments into cfg and validates them.
func parseConfig(name string, args []string, stderr io.Writer, cfg subcommandConfig) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	return cfg.validate()
}

// runCommand is the "run" subcommand.
func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg runConfig
	if err := parseConfig("run", args, stderr, &cfg); err != nil {
		return err
	}
	creds, err := loadCredentials(cfg.credentials, cfg.target)
	if err != nil {
		return err
	}
	client, err := creds.Client(cfg.app, cfg.seller)
	if err != nil {
		return err
	}
	ids, err := resolveIDs(ctx, cfg, creds, client)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "loading %s with signed GET %s over %d order ids\n", cfg.target, cfg.pathOrDefault(), len(ids))
	s, err := attack(ctx, cfg, client, ids, "run")
	if s != nil {
		s.Write(stdout)
		if cfg.jsonPath != "" {
			if werr := writeJSON(cfg.jsonPath, s); werr != nil && err == nil {
				err = werr
			}
		}
	}
	if err != nil {
		return err
	}
	return s.Check(cfg.allow)
}

func resolveIDs(ctx context.Context, cfg runConfig, creds *sdk.Credentials, client *sdk.Client) ([]string, error) {
	switch {
	case len(cfg.ids) > 0:
		return cfg.ids, nil
	case cfg.idsDSN != "":
		seller, _, err := creds.SellerToken(cfg.seller, cfg.app)
		if err != nil {
			return nil, err
		}
		return orderIDsFromDB(ctx, cfg.idsDSN, seller)
	case cfg.idsURL != "":
		c := *creds
		c.BaseURL = cfg.idsURL
		lister, err := c.Client(cfg.app, cfg.seller)
		if err != nil {
			return nil, err
		}
		return listOrderIDs(ctx, lister)
	}
	return listOrderIDs(ctx, client)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func splitComma(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
