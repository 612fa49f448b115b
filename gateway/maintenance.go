package gateway

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	consentv1 "github.com/mallplatform/partnerapi/gen/mp/consent/v1"
	consolepagesv1 "github.com/mallplatform/partnerapi/gen/mp/consolepages/v1"
	maintenancev1 "github.com/mallplatform/partnerapi/gen/mp/maintenance/v1"
	openapiv1 "github.com/mallplatform/partnerapi/gen/mp/openapi/v1"
	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/sdk"
)

// Maintenance defaults.
const (
	// DefaultMaintenancePoll is how often a gateway reads its
	// environment's maintenance switch from core: every replica follows a
	// switch within this and one read's time (the operators' promise is
	// 5 s).
	DefaultMaintenancePoll = time.Second
	// MaxMaintenancePoll keeps that promise.
	MaxMaintenancePoll = 4 * time.Second
	// DefaultMaintenanceTimeout bounds one read.
	DefaultMaintenanceTimeout = time.Second
	// DefaultMaintenanceRetryAfter is the Retry-After of a maintenance
	// announced without an end, or whose announced end has passed.
	DefaultMaintenanceRetryAfter = 60 * time.Second
)

// MaintenanceConfig tunes how the gateway follows its environment's
// maintenance switch.
type MaintenanceConfig struct {
	// Poll is how often the switch is read from core (default 1 s, at
	// most 4 s).
	Poll time.Duration
	// Timeout bounds each read (default 1 s).
	Timeout time.Duration
	// RetryAfter is the Retry-After when no end was announced or the
	// announced end has passed (default 60 s).
	RetryAfter time.Duration
}

// Validate reports configuration mistakes.
func (c MaintenanceConfig) Validate() error {
	if c.Poll < 0 || c.Timeout < 0 || c.RetryAfter < 0 {
		return errors.New("gateway: maintenance durations must not be negative")
	}
	if c.Poll > MaxMaintenancePoll {
		return errors.New("gateway: the maintenance poll must be at most " + MaxMaintenancePoll.String())
	}
	if c.RetryAfter != 0 && c.RetryAfter < time.Second {
		return errors.New("gateway: the maintenance Retry-After must be at least 1s")
	}
	return nil
}

func (c *MaintenanceConfig) setDefaults() {
	if c.Poll == 0 {
		c.Poll = DefaultMaintenancePoll
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultMaintenanceTimeout
	}
	if c.RetryAfter == 0 {
		c.RetryAfter = DefaultMaintenanceRetryAfter
	}
}

// maintenanceState is the switch as the gateway last read it.
type maintenanceState struct {
	on      bool
	until   time.Time
	message string
}

// maintenanceRule is what maintenance does to a route.
type maintenanceRule uint8

const (
	// maintenanceRefused (the zero value, every route not listed): 503
	// MAINTENANCE.
	_ maintenanceRule = iota
	// maintenanceExempt: answered as usual.
	maintenanceExempt
)

// maintenanceRules are the routes maintenance does not refuse, by method.
// Health, readiness and metrics are on the internal port and never reach
// this handler. The OpenAPI documents (partners' and the developer
// console's) are static; the console's JSON routes are refused like the
// partner routes; the pages' assets (stylesheets and scripts) and uploaded
// files ask nothing of core. The pages themselves (the consent page, the
// console's pages) answer a maintenance page of their own (maintenanceGate.pages).
var maintenanceRules = map[string]maintenanceRule{
	openapiv1.OpenAPIService_GetDocument_FullMethodName:         maintenanceExempt,
	openapiv1.OpenAPIService_GetConsoleDocument_FullMethodName:  maintenanceExempt,
	consentv1.ConsentPageService_GetAsset_FullMethodName:        maintenanceExempt,
	consolepagesv1.ConsolePageService_GetAsset_FullMethodName:   maintenanceExempt,
	uploadsv1.UploadFilesService_GetUploadedFile_FullMethodName: maintenanceExempt,
}

// maintenancePage renders a page set's maintenance page: 503 with the
// operator's message and the announced end.
type maintenancePage func(w http.ResponseWriter, message string, until time.Time)

// maintenanceGate is the gateway's side of maintenance: the state the
// follower keeps current, the pages' maintenance pages and the follower's
// stop.
type maintenanceGate struct {
	state *atomic.Pointer[maintenanceState]
	// pages render the maintenance page of a page route, by method (set
	// with the pages' routes).
	pages map[string]maintenancePage
	stop  func()
}

// startMaintenance starts following the environment's switch: a first
// read at once, then one every Poll, each under its own deadline. Until a
// read succeeds the gateway serves (fail open: a gateway that cannot reach
// core fails partner calls with SERVICE_UNAVAILABLE anyway, and refusing
// every route when core is briefly unreachable at start would turn a blip
// into an outage); a failed read keeps the last state read and is logged.
// The follower stops with Close, or when the gateway is no longer
// referenced.
func (g *Gateway) startMaintenance() {
	state := &atomic.Pointer[maintenanceState]{}
	state.Store(&maintenanceState{})
	ctx, cancel := context.WithCancel(context.Background())
	f := &maintenanceFollower{
		client: maintenancev1.NewMaintenanceServiceClient(g.cfg.Core),
		env:    g.cfg.Environment, cfg: g.cfg.Maintenance, log: g.log, state: state,
		done: make(chan struct{}),
	}
	go f.run(ctx)
	g.maint.state = state
	g.maint.stop = func() { cancel(); <-f.done }
	runtime.AddCleanup(g, func(cancel context.CancelFunc) { cancel() }, cancel)
}

// Close stops the gateway's background work (following the maintenance
// switch) and waits for it to end.
func (g *Gateway) Close() {
	if g.maint.stop != nil {
		g.maint.stop()
	}
}

// refuseInMaintenance answers the request while the environment is in
// maintenance, before any work (no body read, no signature checked, no
// nonce claimed), and reports whether it did: 503 MAINTENANCE with
// Retry-After through the one error writer, or, on a page's route, the
// page's maintenance page. Off, it costs one atomic load.
func (g *Gateway) refuseInMaintenance(w *statusWriter, rid string, m *policy.Method) bool {
	st := g.maint.state.Load()
	if !st.on {
		return false
	}
	rule := maintenanceRules[m.FullMethod]
	if rule == maintenanceExempt {
		return false
	}
	w.Header().Set(sdk.HeaderRetryAfter, strconv.FormatInt(g.maintenanceRetryAfter(st), 10))
	if page := g.maint.pages[m.FullMethod]; page != nil {
		w.recordError(apierr.Maintenance)
		page(w, st.message, st.until)
		return true
	}
	msg := st.message
	if msg == "" {
		msg = "the platform is in maintenance; retry after the Retry-After delay"
		if !st.until.IsZero() {
			msg = "the platform is in maintenance until " + st.until.UTC().Format(time.RFC3339) + "; retry after the Retry-After delay"
		}
	}
	writeError(w, rid, apierr.Maintenance, msg)
	return true
}

// maintenanceRetryAfter is the whole seconds until the announced end
// (rounded up, at least 1), or the configured default when no end was
// announced or it has passed.
func (g *Gateway) maintenanceRetryAfter(st *maintenanceState) int64 {
	if !st.until.IsZero() {
		if left := st.until.Sub(g.clock.Now()); left > 0 {
			return int64((left + time.Second - 1) / time.Second)
		}
	}
	return int64(g.cfg.Maintenance.RetryAfter / time.Second)
}

// maintenanceFollower reads the switch from core. It holds no reference to
// the Gateway, so a gateway dropped without Close is collected and its
// follower stopped.
type maintenanceFollower struct {
	client maintenancev1.MaintenanceServiceClient
	env    string
	cfg    MaintenanceConfig
	log    *zap.Logger
	state  *atomic.Pointer[maintenanceState]
	done   chan struct{}
	// failures counts reads failed in a row.
	failures int
}

func (f *maintenanceFollower) run(ctx context.Context) {
	defer close(f.done)
	t := time.NewTicker(f.cfg.Poll)
	defer t.Stop()
	for {
		f.poll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// poll reads the switch once and publishes what changed.
func (f *maintenanceFollower) poll(ctx context.Context) {
	cctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	resp, err := f.client.GetMaintenance(cctx, &maintenancev1.GetMaintenanceRequest{Environment: f.env})
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		f.failures++
		// The first failure, then one line a minute at the default poll.
		if f.failures == 1 || f.failures%60 == 0 {
			f.log.Warn("maintenance: reading the switch from core failed; keeping the last state read",
				zap.String("environment", f.env), zap.Int("failures_in_a_row", f.failures), zap.Error(err))
		}
		return
	}
	if f.failures > 0 {
		f.log.Info("maintenance: reading the switch from core works again", zap.String("environment", f.env),
			zap.Int("failures_in_a_row", f.failures))
		f.failures = 0
	}
	d := resp.GetData()
	next := maintenanceState{on: d.GetOn(), message: d.GetMessage()}
	if d.GetUntil() != nil {
		next.until = d.GetUntil().AsTime()
	}
	prev := f.state.Load()
	if *prev == next {
		return
	}
	f.state.Store(&next)
	if prev.on != next.on {
		f.log.Info("maintenance: switched", zap.String("environment", f.env), zap.Bool("on", next.on),
			zap.Time("until", next.until), zap.String("set_by", d.GetSetBy()))
	}
}
