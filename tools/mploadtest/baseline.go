package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/sdk/signing"
	"github.com/mallplatform/partnerapi/services/orders"
)

// errOrderNotFound is a missing order or another seller's order.
var errOrderNotFound = errors.New("order not found")

// querier is the part of a pgxpool.Pool the baseline uses.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// loadOrder runs the statement the platform's order store sends for
// GetOrder on PostgreSQL (orders.GetOrderPostgresSQL), so the database does
// exactly the same work for the baseline as for the platform.
func loadOrder(ctx context.Context, q querier, sellerID, orderID string) (*orderRow, error) {
	o := &orderRow{SellerID: sellerID}
	var rest []byte
	err := q.QueryRow(ctx, orders.GetOrderPostgresSQL, orderID, sellerID).Scan(
		&o.ID, &o.CustomerID, &o.BuyerEmail, &o.Status, &o.Currency,
		&o.Subtotal, &o.Total, &o.Tax, &o.Shipping, &o.Discount,
		&o.PaymentStatus, &o.FulfillmentStatus,
		&o.ShipByDate, &o.ShippedAt, &o.ShippingChannel, &o.BookingStatus, &o.CancellationRequestedAt, &o.CreatedAt, &o.UpdatedAt,
		&rest)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, errOrderNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	var r struct {
		ShippingAddress dbtypes.Address  `json:"shipping_address"`
		BillingAddress  dbtypes.Address  `json:"billing_address"`
		Items           []itemRow        `json:"items"`
		Fulfillments    []fulfillmentRow `json:"fulfillments"`
	}
	if err := json.Unmarshal(rest, &r); err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	o.ShippingAddress, o.BillingAddress, o.Items, o.Fulfillments = r.ShippingAddress, r.BillingAddress, r.Items, r.Fulfillments
	for i := range o.Items {
		o.Items[i].OrderID = o.ID
	}
	for i := range o.Fulfillments {
		o.Fulfillments[i].OrderID = o.ID
	}
	return o, nil
}

// baselineHandler serves GET /open/v1/orders/{id} straight from PostgreSQL:
// no signature, no replay or rate check, no policy, no second tier. It is
// the floor the platform's cost is compared with.
type baselineHandler struct {
	db querier
	// seller is used when a request carries no X-Platform-Seller-Id.
	seller string
	// showEmail renders buyerEmail as for an app holding customer:email:read
	// (the sandbox "full" app the load runs sign as).
	showEmail bool
	now       func() time.Time
}

var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func newBaselineMux(h *baselineHandler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /open/v1/orders/{id}", h)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"ok"}`)
	})
	return mux
}

func (h *baselineHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	seller := r.Header.Get(signing.HeaderSellerID)
	if seller == "" {
		seller = h.seller
	}
	switch {
	case seller == "":
		writeBaselineError(w, http.StatusUnauthorized, "SELLER_TOKEN_REQUIRED", "no seller: send "+signing.HeaderSellerID)
		return
	case len(id) > 120:
		// The platform's request rules cap the id at 120 characters.
		writeBaselineError(w, http.StatusBadRequest, "VALIDATION_ERROR", "id: must be at most 120 characters")
		return
	}
	o, err := loadOrder(r.Context(), h.db, seller, id)
	if errors.Is(err, errOrderNotFound) {
		writeBaselineError(w, http.StatusNotFound, "NOT_FOUND", "order not found")
		return
	}
	if err != nil {
		writeBaselineError(w, http.StatusInternalServerError, "INTERNAL_ERROR", "internal error")
		return
	}
	bp := bodyPool.Get().(*[]byte)
	b := appendOrderEnvelope((*bp)[:0], o, h.now(), h.showEmail)
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json")
	hdr.Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
	*bp = b
	bodyPool.Put(bp)
}

func writeBaselineError(w http.ResponseWriter, status int, code, message string) {
	b := append([]byte(`{"success":false,"error":{"code":`), wirejson.AppendString(nil, code)...)
	b = append(b, `,"message":`...)
	b = wirejson.AppendString(b, message)
	b = append(b, "}}"...)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

type baselineConfig struct {
	databaseURL string
	addr        string
	seller      string
	maxConns    int
	showEmail   bool
}

func (c *baselineConfig) validate() error {
	if c.databaseURL == "" {
		return errors.New("baseline: --database-url is required")
	}
	return requireLoopbackAddr(c.addr)
}

// serveBaseline runs the baseline server until ctx ends. ready, when not
// nil, receives the listening address once the pool answers.
func serveBaseline(ctx context.Context, cfg baselineConfig, stderr io.Writer, ready func(addr string)) error {
	if err := cfg.validate(); err != nil {
		return err
	}
	pcfg, err := pgxpool.ParseConfig(cfg.databaseURL)
	if err != nil {
		return errors.New("baseline: invalid --database-url")
	}
	// Left at zero the pool keeps pgx's default size, which is also what
	// core runs with unless MP_DB_MAX_CONNS says otherwise.
	if cfg.maxConns > 0 {
		pcfg.MaxConns = int32(cfg.maxConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	defer pool.Close()
	if err := pool.Ping(ctx); err != nil {
		return fmt.Errorf("baseline: database does not answer: %w", err)
	}
	lis, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	h := &baselineHandler{db: pool, seller: cfg.seller, showEmail: cfg.showEmail, now: time.Now}
	srv := &http.Server{
		Handler:           newBaselineMux(h),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	fmt.Fprintf(stderr, "baseline listening on %s (pool of %d connections)\n", lis.Addr(), pcfg.MaxConns)
	if ready != nil {
		ready(lis.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(lis) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
