package orders

import (
	"context"
	"errors"
	"fmt"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
)

// GetOrderPostgresSQL reads an order with its items and fulfillments in one
// statement ($1 order id, $2 seller id): the order read is the hottest path
// of the API, and one round trip instead of three roughly halves its cost in
// core and in PostgreSQL.
// The addresses and children travel as one JSON column (one decode in Go);
// the seller filter is on the order, and the children are reached only
// through it.
// The column is decoded with github.com/goccy/go-json, encoding/json's
// rules without its reflection on every call: with encoding/json the decode
// was a fifth of core's CPU on this read (docs/performance.md).
const GetOrderPostgresSQL = `
SELECT o.id, o.customer_id, o.buyer_email, o.status, o.currency,
       o.subtotal, o.total, o.tax, o.shipping, o.discount,
       o.payment_status, o.fulfillment_status,
       o.ship_by_date, o.shipped_at, o.shipping_channel, o.booking_status,
       o.cancellation_requested_at, o.created_at, o.updated_at,
       json_build_object(
       'shipping_address', o.shipping_address, 'billing_address', o.billing_address,
       'items', COALESCE((SELECT json_agg(json_build_object(
                   'id', i.id, 'product_id', i.product_id, 'variant_id', i.variant_id, 'title', i.title,
                   'sku', i.sku, 'quantity', i.quantity, 'unit_price', i.unit_price,
                   'total_price', i.total_price, 'thumbnail', i.thumbnail) ORDER BY i.position)
                 FROM order_items i WHERE i.order_id = o.id), '[]'),
       'fulfillments', COALESCE((SELECT json_agg(json_build_object(
                   'id', f.id, 'status', f.status, 'tracking_number', f.tracking_number,
                   'tracking_company', f.tracking_company, 'items', f.items,
                   'created_at', f.created_at, 'updated_at', f.updated_at) ORDER BY f.created_at, f.id)
                 FROM fulfillments f WHERE f.order_id = o.id), '[]'))
  FROM orders o
 WHERE o.id = $1 AND o.seller_id = $2`

// orderJSON is the statement's JSON column.
type orderJSON struct {
	ShippingAddress dbtypes.Address   `json:"shipping_address"`
	BillingAddress  dbtypes.Address   `json:"billing_address"`
	Items           []itemJSON        `json:"items"`
	Fulfillments    []fulfillmentJSON `json:"fulfillments"`
}

type itemJSON struct {
	ID         string  `json:"id"`
	ProductID  string  `json:"product_id"`
	VariantID  *string `json:"variant_id"`
	Title      string  `json:"title"`
	SKU        string  `json:"sku"`
	Quantity   int64   `json:"quantity"`
	UnitPrice  int64   `json:"unit_price"`
	TotalPrice int64   `json:"total_price"`
	Thumbnail  *string `json:"thumbnail"`
}

type fulfillmentJSON struct {
	ID              string                    `json:"id"`
	Status          string                    `json:"status"`
	TrackingNumber  string                    `json:"tracking_number"`
	TrackingCompany string                    `json:"tracking_company"`
	Items           []dbtypes.FulfillmentItem `json:"items"`
	CreatedAt       time.Time                 `json:"created_at"`
	UpdatedAt       time.Time                 `json:"updated_at"`
}

// getOrderPlans are GetOrderPostgresSQL's scan plans, made once per
// connection instead of on every read.
var getOrderPlans db.RowPlans

// getOrderPostgres runs GetOrderPostgresSQL on the pgx pool itself (on the
// hottest read of the API, database/sql's layer costs as much as the query),
// through the store's batcher: concurrent reads share a round trip. The
// batcher only scans the row; the JSON column is decoded here, on the
// caller's goroutine.
func (s *EntStore) getOrderPostgres(ctx context.Context, sellerID, orderID string) (*Order, error) {
	o := &Order{SellerID: sellerID}
	var (
		status  string
		rest    []byte // addresses, items and fulfillments as one JSON object
		booking *string
	)
	err := s.orderReads.QueryRow(ctx, []any{orderID, sellerID}, getOrderPlans.Row(&o.ID, &o.CustomerID, &o.BuyerEmail, &status, &o.Currency,
		&o.Subtotal, &o.Total, &o.Tax, &o.Shipping, &o.Discount,
		&o.PaymentStatus, &o.FulfillmentStatus,
		&o.ShipByDate, &o.ShippedAt, &o.ShippingChannel, &booking,
		&o.CancellationRequestedAt, &o.CreatedAt, &o.UpdatedAt, &rest))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("orders: get order: %w", err)
	}
	o.Status = Status(status)
	if booking != nil {
		b := BookingStatus(*booking)
		o.BookingStatus = &b
	}
	var r orderJSON
	if err := gojson.Unmarshal(rest, &r); err != nil {
		return nil, fmt.Errorf("orders: decode order: %w", err)
	}
	o.ShippingAddress, o.BillingAddress = addressFromEnt(r.ShippingAddress), addressFromEnt(r.BillingAddress)
	for _, it := range r.Items {
		o.Items = append(o.Items, Item{
			ID: it.ID, OrderID: o.ID, ProductID: it.ProductID, VariantID: it.VariantID, Title: it.Title, SKU: it.SKU,
			Quantity: it.Quantity, UnitPrice: it.UnitPrice, TotalPrice: it.TotalPrice, Thumbnail: it.Thumbnail,
		})
	}
	for _, f := range r.Fulfillments {
		items := make([]FulfillmentItem, len(f.Items))
		for i, it := range f.Items {
			items[i] = FulfillmentItem{ItemID: it.ItemID, Quantity: int64(it.Quantity)}
		}
		o.Fulfillments = append(o.Fulfillments, Fulfillment{
			ID: f.ID, OrderID: o.ID, Status: FulfillmentStatus(f.Status), TrackingNumber: f.TrackingNumber,
			TrackingCompany: f.TrackingCompany, Items: items, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt,
		})
	}
	return o, nil
}
