package orders

import (
	"context"
	"fmt"

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
