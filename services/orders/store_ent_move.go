package orders

import (
	"context"
	"fmt"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/fulfillment"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/ent/orderitem"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
)

// MoveOrder implements Store: UPDATE … WHERE id AND seller AND status IN
// (m.From), so two moves racing on one order cannot both win (on PostgreSQL
// the second waits for the first's row lock, then finds the status
// changed). The order is read back in the same transaction.
func (s *EntStore) MoveOrder(ctx context.Context, sellerID, orderID string, m Move) (*Order, bool, error) {
	var o *Order
	moved := false
	err := s.InTx(ctx, func(ctx context.Context) error {
		if len(m.From) > 0 {
			in := make([]order.Status, len(m.From))
			for i, st := range m.From {
				in[i] = order.Status(st)
			}
			u := s.sellerOrderUpdate(ctx, sellerID).
				Where(order.ID(orderID), order.StatusIn(in...)).
				SetStatus(order.Status(m.To)).SetUpdatedAt(m.At)
			if m.Unbooked {
				u.Where(order.Or(order.BookingStatusIsNil(),
					order.BookingStatusNEQ(order.BookingStatus(BookingReadyForHandover))))
			}
			if m.Booking != "" {
				u.SetBookingStatus(order.BookingStatus(m.Booking))
			}
			if m.Channel != "" {
				u.SetShippingChannel(m.Channel)
			}
			if m.PaymentStatus != "" {
				u.SetPaymentStatus(m.PaymentStatus)
			}
			if m.FulfillmentStatus != "" {
				u.SetFulfillmentStatus(m.FulfillmentStatus)
			}
			if m.Shipped {
				u.SetShippedAt(m.At)
			}
			if m.ClearBooking {
				u.ClearBookingStatus()
			}
			n, err := u.Save(ctx)
			if err != nil {
				return fmt.Errorf("orders: move to %s: %w", m.To, err)
			}
			moved = n == 1
		}
		if moved {
			// Only an order this call moved is the seller's; its shipments
			// need no seller filter of their own.
			if err := s.moveShipments(ctx, orderID, m); err != nil {
				return err
			}
		}
		var err error
		o, err = s.GetOrder(ctx, sellerID, orderID)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return o, moved, nil
}

func (s *EntStore) moveShipments(ctx context.Context, orderID string, m Move) error {
	c := s.db(ctx)
	if m.ShipmentsTo == "" {
		return nil
	}
	if m.ShipmentsFrom != "" {
		_, err := c.Fulfillment.Update().
			Where(fulfillment.OrderID(orderID), fulfillment.StatusEQ(fulfillment.Status(m.ShipmentsFrom))).
			SetStatus(fulfillment.Status(m.ShipmentsTo)).SetUpdatedAt(m.At).
			Save(ctx)
		if err != nil {
			return fmt.Errorf("orders: move shipments: %w", err)
		}
	}
	if m.NewShipment == nil {
		return nil
	}
	has, err := c.Fulfillment.Query().
		Where(fulfillment.OrderID(orderID), fulfillment.StatusEQ(fulfillment.Status(m.ShipmentsTo))).Exist(ctx)
	if err != nil || has {
		return err
	}
	items, err := c.OrderItem.Query().Where(orderitem.OrderID(orderID)).Order(orderitem.ByPosition()).All(ctx)
	if err != nil {
		return fmt.Errorf("orders: read items: %w", err)
	}
	f := m.NewShipment
	covered := make([]dbtypes.FulfillmentItem, len(items))
	for i, it := range items {
		covered[i] = dbtypes.FulfillmentItem{ItemID: it.ID, Quantity: int(it.Quantity)}
	}
	err = c.Fulfillment.Create().
		SetID(f.ID).SetOrderID(orderID).SetStatus(fulfillment.Status(m.ShipmentsTo)).
		SetTrackingNumber(f.TrackingNumber).SetTrackingCompany(f.TrackingCompany).SetItems(covered).
		SetCreatedAt(m.At).SetUpdatedAt(m.At).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("orders: insert shipment: %w", err)
	}
	return nil
}

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}

// sellerOrderUpdate starts every update of orders, with the seller filter
// as sellerOrders writes it for queries.
func (s *EntStore) sellerOrderUpdate(ctx context.Context, sellerID string) *ent.OrderUpdate {
	return s.db(ctx).Order.Update().Where(order.SellerID(sellerID))
}

// MarkCancellationRequested implements Store: one UPDATE of the order's
// stamp, its status and updated_at untouched (the request is the
// cancellations domain's record; the order has not changed).
func (s *EntStore) MarkCancellationRequested(ctx context.Context, sellerID, orderID string, at time.Time) error {
	n, err := s.sellerOrderUpdate(ctx, sellerID).Where(order.ID(orderID)).SetCancellationRequestedAt(at).Save(ctx)
	if err != nil {
		return fmt.Errorf("orders: mark cancellation requested: %w", err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// MoveOrders implements Store: one UPDATE … WHERE seller AND id IN (ids) AND
// status IN (m.From) RETURNING id for the whole batch, then one UPDATE of
// the moved orders' shipments.
func (s *EntStore) MoveOrders(ctx context.Context, sellerID string, ids []string, m Move) ([]string, error) {
	if len(ids) == 0 || len(m.From) == 0 || sellerID == "" {
		return nil, nil
	}
	u := entsql.Dialect(s.dialect).Update(order.Table).
		Set(order.FieldStatus, string(m.To)).Set(order.FieldUpdatedAt, m.At)
	if m.FulfillmentStatus != "" {
		u.Set(order.FieldFulfillmentStatus, m.FulfillmentStatus)
	}
	if m.PaymentStatus != "" {
		u.Set(order.FieldPaymentStatus, m.PaymentStatus)
	}
	if m.ClearBooking {
		u.SetNull(order.FieldBookingStatus)
	}
	from := make([]any, len(m.From))
	for i, st := range m.From {
		from[i] = string(st)
	}
	idArgs := make([]any, len(ids))
	for i, id := range ids {
		idArgs[i] = id
	}
	q, args := u.Where(entsql.And(
		entsql.EQ(order.FieldSellerID, sellerID), entsql.In(order.FieldID, idArgs...), entsql.In(order.FieldStatus, from...),
	)).Returning(order.FieldID).Query()
	var moved []string
	err := s.InTx(ctx, func(ctx context.Context) error {
		rows, err := s.db(ctx).QueryContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("orders: move to %s: %w", m.To, err)
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("orders: move to %s: %w", m.To, err)
			}
			moved = append(moved, id)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("orders: move to %s: %w", m.To, err)
		}
		rows.Close()
		if len(moved) == 0 || m.ShipmentsTo == "" || m.ShipmentsFrom == "" {
			return nil
		}
		_, err = s.db(ctx).Fulfillment.Update().
			Where(fulfillment.OrderIDIn(moved...), fulfillment.StatusEQ(fulfillment.Status(m.ShipmentsFrom))).
			SetStatus(fulfillment.Status(m.ShipmentsTo)).SetUpdatedAt(m.At).
			Save(ctx)
		if err != nil {
			return fmt.Errorf("orders: move shipments: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return moved, nil
}

// GetOrders implements Store.
func (s *EntStore) GetOrders(ctx context.Context, sellerID string, ids []string) ([]*Order, error) {
	q, ok := s.sellerOrders(ctx, sellerID)
	if !ok || len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.Where(inIDs(order.FieldID, ids)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("orders: get orders: %w", err)
	}
	out := make([]*Order, len(rows))
	for i, r := range rows {
		out[i] = orderFromEnt(r)
	}
	if err := s.loadChildren(ctx, sellerID, out); err != nil {
		return nil, err
	}
	return out, nil
}
