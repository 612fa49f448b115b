// Package orders serves the partner view of a seller's orders: listing with
// the spec's limited filters and keyset pagination, and reading one order.
// The gRPC server (server.go) converts and delegates to Service, which owns
// the rules: seller isolation, the partner status mapping, and the derived,
// presence-sensitive fields (slaBreached, bookingStatus, shippingChannel,
// buyerEmail). Storage sits behind Store (store.go), implemented on ent in
// store_ent.go.
package orders

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	// Aliased: the package's tests name a helper ids.
	resourceids "github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
)

// ScopeBuyerEmail is the scope an app needs to see buyerEmail.
const ScopeBuyerEmail = "customer:email:read"

// Service holds the order use cases.
type Service struct {
	store   Store
	clock   clock.Business
	cursors *pagination.Cursors
	stock   Stock
	events  *events.Recorder
	// bookings voids a cancelled order's carrier booking (UseBookings);
	// nil: orders have no bookings to void.
	bookings Bookings
	// cancellations reads the orders' cancellation requests
	// (UseCancellationRequests); nil: orders carry none.
	cancellations CancellationRequests
}

// Config is what a Service is built from.
type Config struct {
	Store Store
	// Business decides "now" for the SLA flag and for the times changes are
	// recorded at, so the sandbox clock and tests can move it (default: the
	// system clock).
	Business clock.Business
	// Cursors signs and reads listing cursors: core's replicas share one
	// (platform.NewCore derives it from the secret key); nil draws a random
	// key, good only for its own cursors.
	Cursors *pagination.Cursors
	// Stock takes a new order's quantities off and back a cancelled
	// order's, and Events records every change; both join the change's
	// transaction. A Service without them reads orders only.
	Stock  Stock
	Events *events.Recorder
}

// NewService returns a Service.
func NewService(cfg Config) *Service {
	if cfg.Business == nil {
		cfg.Business = clock.System{}
	}
	if cfg.Cursors == nil {
		cfg.Cursors = pagination.RandomCursors()
	}
	return &Service{store: cfg.Store, clock: cfg.Business, cursors: cfg.Cursors, stock: cfg.Stock, events: cfg.Events}
}

// View is an order as one caller may see it: the stored order plus the
// fields derived for this caller at this instant. A nil pointer field is
// absent on the wire.
type View struct {
	Order *Order
	// Status is the partner status (PENDING and PAID read as READY_TO_SHIP).
	Status          Status
	BuyerEmail      *string
	SLABreached     *bool
	BookingStatus   *BookingStatus
	ShippingChannel *string
	// CancellationRequest is the buyer's latest request to cancel the
	// order; nil when there is none.
	CancellationRequest *CancellationRequest
}

// ListParams is a listing request after transport decoding and validation.
type ListParams struct {
	// Status is a partner status; nil lists every order.
	Status        *Status
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
	Ascending     bool
	Page          int32
	Limit         int32
	Cursor        string
}

// GetOrder returns the calling seller's order. A missing order and another
// seller's order are the same NOT_FOUND, so existence is not disclosed.
func (s *Service) GetOrder(ctx context.Context, id string) (View, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return View{}, err
	}
	return s.getOrder(ctx, seller, id)
}

// getOrder is GetOrder of seller's order: a buyer's request PENDING past its
// deadline is settled first (its automatic approval cancels the order, which
// is then read again), in a transaction of its own. The moves that take an
// order towards the buyer read it this way before they decide, so that they
// never move an order the read shows cancelled.
func (s *Service) getOrder(ctx context.Context, seller, id string) (View, error) {
	o, err := s.storedOrder(ctx, seller, id)
	if err != nil {
		return View{}, err
	}
	now := s.clock.Business(ctx)
	views := []View{s.view(ctx, o, now)}
	if err := s.withCancellationRequests(ctx, seller, views, now); err != nil {
		return View{}, err
	}
	return views[0], nil
}

// storedOrder reads seller's order as stored, settling nothing. A missing
// order and another seller's order are the same NOT_FOUND.
func (s *Service) storedOrder(ctx context.Context, seller, id string) (*Order, error) {
	if !resourceids.Plausible("ord", id) {
		// No order has such an id: answered without a query, which an id
		// holding NUL or invalid UTF-8 would fail in PostgreSQL.
		return nil, apierr.New(apierr.NotFound, "order not found")
	}
	o, err := s.store.GetOrder(ctx, seller, id)
	if errors.Is(err, ErrNotFound) {
		return nil, apierr.New(apierr.NotFound, "order not found")
	}
	return o, err
}

// ListOrders returns a page of the calling seller's orders, newest first
// unless Ascending. A cursor continues the listing it was issued for; page
// is honoured as an offset when no cursor is sent.
func (s *Service) ListOrders(ctx context.Context, p ListParams) (pagination.Page[View], error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return pagination.Page[View]{}, err
	}
	var f Filter
	if p.Status != nil {
		f.Statuses = StoredStatuses(*p.Status)
	}
	f.CreatedAfter, f.CreatedBefore = p.CreatedAfter, p.CreatedBefore
	fp := fingerprint(seller, p)
	w, err := pagination.Resolve[pagination.TimeKey](s.cursors, pagination.Request{Page: p.Page, Limit: p.Limit, Cursor: p.Cursor}, fp)
	if err != nil {
		return pagination.Page[View]{}, err
	}
	page := Page{Ascending: p.Ascending, Limit: w.Limit, Offset: w.Offset}
	if w.After != nil {
		page.After = &Key{CreatedAt: w.After.At, ID: w.After.ID}
	}
	var rows []*Order
	var more bool
	total, err := pagination.PageAndCount(
		func() (int64, error) { return s.store.CountOrders(ctx, seller, f) },
		func() (err error) { rows, more, err = s.store.ListOrders(ctx, seller, f, page); return err })
	if err != nil {
		return pagination.Page[View]{}, err
	}
	now := s.clock.Business(ctx)
	views := make([]View, len(rows))
	for i, o := range rows {
		views[i] = s.view(ctx, o, now)
	}
	if err := s.withCancellationRequests(ctx, seller, views, now); err != nil {
		return pagination.Page[View]{}, err
	}
	return pagination.NewPage(w, views, more, total, func(v View) pagination.TimeKey {
		return pagination.TimeKey{At: v.Order.CreatedAt, ID: v.Order.ID}
	}), nil
}

// fingerprint ties a cursor to the seller, filters and sort it was issued
// for; the limit may change between pages.
func fingerprint(seller string, p ListParams) string {
	status, after, before, sort := "", "", "", "desc"
	if p.Status != nil {
		status = string(*p.Status)
	}
	if p.CreatedAfter != nil {
		after = p.CreatedAfter.UTC().Format(time.RFC3339Nano)
	}
	if p.CreatedBefore != nil {
		before = p.CreatedBefore.UTC().Format(time.RFC3339Nano)
	}
	if p.Ascending {
		sort = "asc"
	}
	return pagination.Fingerprint("orders", seller, status, after, before, sort)
}

// view derives what this caller sees of o at now.
func (s *Service) view(ctx context.Context, o *Order, now time.Time) View {
	v := partnerView(o, now)
	// Personal data goes only to partner apps granted the scope; internal
	// callers without a partner principal read it from their own systems.
	if p, ok := principal.FromContext(ctx); ok && p.HasScope(ScopeBuyerEmail) && o.BuyerEmail != "" {
		email := o.BuyerEmail
		v.BuyerEmail = &email
	}
	return v
}

// partnerView is what every partner may see of o at now: the view without
// personal data, which is also what events carry.
func partnerView(o *Order, now time.Time) View {
	v := View{Order: o, Status: o.Status.PartnerStatus()}
	if o.ShipByDate != nil {
		// Once the order has left the seller the deadline is history: the
		// flag stays false even when it shipped late.
		breached := o.Status.PreShipment() && now.After(*o.ShipByDate)
		v.SLABreached = &breached
	}
	if o.Status.PreShipment() && o.BookingStatus != nil {
		b := *o.BookingStatus
		v.BookingStatus = &b
	}
	if o.ShippingChannel != nil && *o.ShippingChannel != "" {
		c := *o.ShippingChannel
		v.ShippingChannel = &c
	}
	return v
}
