package orders

import (
	"context"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/fulfillment"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/ent/orderitem"
	"github.com/mallplatform/partnerapi/ent/predicate"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
)

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
	// orderReads is set on PostgreSQL: the order read goes to pgx
	// directly, concurrent reads in one round trip (the database's batcher
	// for the statement, shared with every other store on it).
	orderReads *db.ReadBatcher
	// dialect builds the statements written by hand.
	dialect string
}

// db is the client this call's queries use: the transaction the context
// carries, if any (so an order's change commits with the other domains'
// writes of the same request), else the store's own.
func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// NewEntStore returns a Store over d.
func NewEntStore(d *db.DB) *EntStore {
	st := &EntStore{client: d.Ent, dialect: dialect.SQLite}
	if d.Driver() == db.DriverPostgres {
		st.dialect = dialect.Postgres
	}
	reads, err := d.ReadBatcher(db.ReadBatcherConfig{Name: "orders.get_order", SQL: GetOrderPostgresSQL, Timeout: orderReadTimeout})
	if err != nil {
		panic(err) // the configuration is constant: a programming error
	}
	st.orderReads = reads
	return st
}

// orderReadTimeout bounds a round trip of order reads that none of its
// reads bounds sooner; core gives every call a deadline of at most as much
// (core.DefaultCallTimeout).
const orderReadTimeout = 10 * time.Second

var _ Store = (*EntStore)(nil)

// GetOrder implements Store.
func (s *EntStore) GetOrder(ctx context.Context, sellerID, orderID string) (*Order, error) {
	q, ok := s.sellerOrders(ctx, sellerID)
	if !ok {
		return nil, ErrNotFound
	}
	if _, inTx := db.TxFromContext(ctx); s.orderReads != nil && !inTx {
		// The one-statement read on the pgx pool; inside a transaction
		// the read goes through it, to see the transaction's own writes.
		return s.getOrderPostgres(ctx, sellerID, orderID)
	}
	row, err := q.Where(order.ID(orderID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("orders: get order: %w", err)
	}
	out := []*Order{orderFromEnt(row)}
	if err := s.loadChildren(ctx, sellerID, out); err != nil {
		return nil, err
	}
	return out[0], nil
}

// ListOrders implements Store. The page is read on the (seller_id,
// created_at, id) or (seller_id, status, created_at, id) index; the keyset
// position is one row comparison so the index range starts right at it.
func (s *EntStore) ListOrders(ctx context.Context, sellerID string, f Filter, p Page) ([]*Order, bool, error) {
	q, ok := s.sellerOrders(ctx, sellerID)
	if !ok {
		return nil, false, nil
	}
	q = q.Where(filterPredicates(f)...)
	if p.After != nil {
		at, id, asc := p.After.CreatedAt, p.After.ID, p.Ascending
		q = q.Where(func(sel *entsql.Selector) {
			cols := []string{sel.C(order.FieldCreatedAt), sel.C(order.FieldID)}
			if asc {
				sel.Where(entsql.CompositeGT(cols, at, id))
			} else {
				sel.Where(entsql.CompositeLT(cols, at, id))
			}
		})
	} else if p.Offset > 0 {
		q = q.Offset(p.Offset)
	}
	dir := entsql.OrderDesc()
	if p.Ascending {
		dir = entsql.OrderAsc()
	}
	// One extra row tells whether another page follows without a second query.
	rows, err := q.Order(order.ByCreatedAt(dir), order.ByID(dir)).Limit(p.Limit + 1).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("orders: list orders: %w", err)
	}
	more := len(rows) > p.Limit
	if more {
		rows = rows[:p.Limit]
	}
	out := make([]*Order, len(rows))
	for i, r := range rows {
		out[i] = orderFromEnt(r)
	}
	if err := s.loadChildren(ctx, sellerID, out); err != nil {
		return nil, false, err
	}
	return out, more, nil
}

// CountOrders implements Store.
func (s *EntStore) CountOrders(ctx context.Context, sellerID string, f Filter) (int64, error) {
	q, ok := s.sellerOrders(ctx, sellerID)
	if !ok {
		return 0, nil
	}
	n, err := q.Where(filterPredicates(f)...).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("orders: count orders: %w", err)
	}
	return int64(n), nil
}

// sellerOrders starts every query of orders: the seller filter is written
// here and nowhere else, and a query without a seller never reaches the
// database (ok is false).
func (s *EntStore) sellerOrders(ctx context.Context, sellerID string) (q *ent.OrderQuery, ok bool) {
	if sellerID == "" {
		return nil, false
	}
	return s.db(ctx).Order.Query().Where(order.SellerID(sellerID)), true
}

// filterPredicates are a listing's filters, on top of sellerOrders.
func filterPredicates(f Filter) []predicate.Order {
	var ps []predicate.Order
	switch len(f.Statuses) {
	case 0:
	case 1:
		ps = append(ps, order.StatusEQ(order.Status(f.Statuses[0])))
	default:
		in := make([]order.Status, len(f.Statuses))
		for i, st := range f.Statuses {
			in[i] = order.Status(st)
		}
		ps = append(ps, order.StatusIn(in...))
	}
	// Bounds may come in any zone: SQLite compares times as text, and
	// internal/db has its driver write every time, parameters included, in
	// UTC (PostgreSQL compares instants).
	if f.CreatedAfter != nil {
		ps = append(ps, order.CreatedAtGTE(*f.CreatedAfter))
	}
	if f.CreatedBefore != nil {
		ps = append(ps, order.CreatedAtLT(*f.CreatedBefore))
	}
	return ps
}

// loadChildren fills items and fulfillments of a page in two queries. Both
// repeat the seller filter through the parent order, so a child row is never
// read on the strength of an id alone.
func (s *EntStore) loadChildren(ctx context.Context, sellerID string, orders []*Order) error {
	if len(orders) == 0 {
		return nil
	}
	ids := make([]string, len(orders))
	byID := make(map[string]*Order, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
		byID[o.ID] = o
	}
	items, err := s.db(ctx).OrderItem.Query().
		Where(inIDs(orderitem.FieldOrderID, ids), orderitem.HasOrderWith(order.SellerID(sellerID))).
		Order(orderitem.ByOrderID(), orderitem.ByPosition()).
		All(ctx)
	if err != nil {
		return fmt.Errorf("orders: load items: %w", err)
	}
	for _, it := range items {
		o := byID[it.OrderID]
		o.Items = append(o.Items, itemFromEnt(it))
	}
	fuls, err := s.db(ctx).Fulfillment.Query().
		Where(inIDs(fulfillment.FieldOrderID, ids), fulfillment.HasOrderWith(order.SellerID(sellerID))).
		Order(fulfillment.ByOrderID(), fulfillment.ByCreatedAt(), fulfillment.ByID()).
		All(ctx)
	if err != nil {
		return fmt.Errorf("orders: load fulfillments: %w", err)
	}
	for _, f := range fuls {
		o := byID[f.OrderID]
		o.Fulfillments = append(o.Fulfillments, fulfillmentFromEnt(f))
	}
	return nil
}

// inIDs matches column against ids. On PostgreSQL the ids travel as one
// array parameter, so the statement text is the same whatever the page size
// and the server reuses its plan; an IN list of one parameter per id made
// PostgreSQL plan every execution afresh, which cost more than running it.
func inIDs(column string, ids []string) func(*entsql.Selector) {
	return func(sel *entsql.Selector) {
		if sel.Dialect() == dialect.Postgres {
			sel.Where(entsql.P(func(b *entsql.Builder) {
				b.Ident(sel.C(column)).WriteString(" = ANY(").Arg(ids).WriteString(")")
			}))
			return
		}
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		sel.Where(entsql.In(sel.C(column), args...))
	}
}

// createBatch keeps multi-row INSERTs under SQLite's bound-parameter limit.
const createBatch = 200

// CreateOrders implements Store.
func (s *EntStore) CreateOrders(ctx context.Context, orders []*Order) error {
	for _, o := range orders {
		if o.ID == "" || o.SellerID == "" {
			return errors.New("orders: create: every order needs an id and a seller")
		}
	}
	return db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		for start := 0; start < len(orders); start += createBatch {
			batch := orders[start:min(start+createBatch, len(orders))]
			if err := createBatchTx(ctx, tx, batch); err != nil {
				return err
			}
		}
		return nil
	})
}

func createBatchTx(ctx context.Context, tx *ent.Tx, orders []*Order) error {
	oc := make([]*ent.OrderCreate, len(orders))
	var ic []*ent.OrderItemCreate
	var fc []*ent.FulfillmentCreate
	for i, o := range orders {
		c := tx.Order.Create().
			SetID(o.ID).
			SetSellerID(o.SellerID).
			SetCustomerID(o.CustomerID).
			SetBuyerEmail(o.BuyerEmail).
			SetStatus(order.Status(o.Status)).
			SetSubtotal(o.Subtotal).
			SetTotal(o.Total).
			SetTax(o.Tax).
			SetShipping(o.Shipping).
			SetDiscount(o.Discount).
			SetPaymentStatus(o.PaymentStatus).
			SetFulfillmentStatus(o.FulfillmentStatus).
			SetShippingAddress(addressToEnt(o.ShippingAddress)).
			SetBillingAddress(addressToEnt(o.BillingAddress)).
			SetNillableShipByDate(o.ShipByDate).
			SetNillableShippedAt(o.ShippedAt).
			SetNillableShippingChannel(o.ShippingChannel)
		if o.Currency != "" {
			c.SetCurrency(o.Currency) // otherwise the schema's default
		}
		if o.BookingStatus != nil {
			c.SetBookingStatus(order.BookingStatus(*o.BookingStatus))
		}
		if !o.CreatedAt.IsZero() {
			c.SetCreatedAt(o.CreatedAt)
		}
		if !o.UpdatedAt.IsZero() {
			c.SetUpdatedAt(o.UpdatedAt)
		}
		oc[i] = c
		for pos, it := range o.Items {
			ic = append(ic, tx.OrderItem.Create().
				SetID(it.ID).
				SetOrderID(o.ID).
				SetPosition(pos).
				SetProductID(it.ProductID).
				SetNillableVariantID(it.VariantID).
				SetTitle(it.Title).
				SetSku(it.SKU).
				SetQuantity(int(it.Quantity)).
				SetUnitPrice(it.UnitPrice).
				SetTotalPrice(it.TotalPrice).
				SetNillableThumbnail(it.Thumbnail))
		}
		for _, f := range o.Fulfillments {
			items := make([]dbtypes.FulfillmentItem, len(f.Items))
			for j, fi := range f.Items {
				items[j] = dbtypes.FulfillmentItem{ItemID: fi.ItemID, Quantity: int(fi.Quantity)}
			}
			c := tx.Fulfillment.Create().
				SetID(f.ID).
				SetOrderID(o.ID).
				SetStatus(fulfillment.Status(f.Status)).
				SetTrackingNumber(f.TrackingNumber).
				SetTrackingCompany(f.TrackingCompany).
				SetItems(items)
			if !f.CreatedAt.IsZero() {
				c.SetCreatedAt(f.CreatedAt)
			}
			if !f.UpdatedAt.IsZero() {
				c.SetUpdatedAt(f.UpdatedAt)
			}
			fc = append(fc, c)
		}
	}
	if err := tx.Order.CreateBulk(oc...).Exec(ctx); err != nil {
		return fmt.Errorf("orders: insert orders: %w", err)
	}
	for start := 0; start < len(ic); start += createBatch {
		if err := tx.OrderItem.CreateBulk(ic[start:min(start+createBatch, len(ic))]...).Exec(ctx); err != nil {
			return fmt.Errorf("orders: insert items: %w", err)
		}
	}
	for start := 0; start < len(fc); start += createBatch {
		if err := tx.Fulfillment.CreateBulk(fc[start:min(start+createBatch, len(fc))]...).Exec(ctx); err != nil {
			return fmt.Errorf("orders: insert fulfillments: %w", err)
		}
	}
	return nil
}

func orderFromEnt(r *ent.Order) *Order {
	o := &Order{
		ID:                      r.ID,
		SellerID:                r.SellerID,
		CustomerID:              r.CustomerID,
		BuyerEmail:              r.BuyerEmail,
		Status:                  Status(r.Status),
		Currency:                r.Currency,
		Subtotal:                r.Subtotal,
		Total:                   r.Total,
		Tax:                     r.Tax,
		Shipping:                r.Shipping,
		Discount:                r.Discount,
		PaymentStatus:           r.PaymentStatus,
		FulfillmentStatus:       r.FulfillmentStatus,
		ShippingAddress:         addressFromEnt(r.ShippingAddress),
		BillingAddress:          addressFromEnt(r.BillingAddress),
		ShipByDate:              r.ShipByDate,
		ShippedAt:               r.ShippedAt,
		ShippingChannel:         r.ShippingChannel,
		CancellationRequestedAt: r.CancellationRequestedAt,
		CreatedAt:               r.CreatedAt,
		UpdatedAt:               r.UpdatedAt,
	}
	if r.BookingStatus != nil {
		b := BookingStatus(*r.BookingStatus)
		o.BookingStatus = &b
	}
	return o
}

func itemFromEnt(r *ent.OrderItem) Item {
	return Item{
		ID:         r.ID,
		OrderID:    r.OrderID,
		ProductID:  r.ProductID,
		VariantID:  r.VariantID,
		Title:      r.Title,
		SKU:        r.Sku,
		Quantity:   int64(r.Quantity),
		UnitPrice:  r.UnitPrice,
		TotalPrice: r.TotalPrice,
		Thumbnail:  r.Thumbnail,
	}
}

func fulfillmentFromEnt(r *ent.Fulfillment) Fulfillment {
	items := make([]FulfillmentItem, len(r.Items))
	for i, it := range r.Items {
		items[i] = FulfillmentItem{ItemID: it.ItemID, Quantity: int64(it.Quantity)}
	}
	return Fulfillment{
		ID:              r.ID,
		OrderID:         r.OrderID,
		Status:          FulfillmentStatus(r.Status),
		TrackingNumber:  r.TrackingNumber,
		TrackingCompany: r.TrackingCompany,
		Items:           items,
		CreatedAt:       r.CreatedAt,
		UpdatedAt:       r.UpdatedAt,
	}
}

// The domain and storage addresses have the same fields, so converting is a
// type conversion; the compiler keeps the two in step.
func addressFromEnt(a dbtypes.Address) Address { return Address(a) }

func addressToEnt(a Address) dbtypes.Address { return dbtypes.Address(a) }
