package orders_test

import (
	"context"
	"errors"
	"testing"

	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
)

// The refund step: a DELIVERED order moves to RETURN_REFUND with payment
// status refunded and one order.return_refund, in the caller's
// transaction; a second refund changes nothing; an order never delivered
// is INVALID_TRANSITION; a rolled-back caller leaves the order as it was.
func TestRefundStep(t *testing.T) {
	backends(t, func(t *testing.T, env *testenv.Env) {
		ctx := context.Background()
		svc := orders.NewService(orders.Config{Store: orders.NewEntStore(env.DB),
			Events: events.NewRecorder(events.NewEntStore(env.DB), nil)})
		seller := env.Creds.Sellers[0].SellerID
		delivered := sellerOrders(t, env, 0, order.StatusDelivered)
		shipped := sellerOrders(t, env, 0, order.StatusShipped)[0]

		// A caller whose transaction fails takes the order's move with it.
		first := delivered[0]
		errLater := apierr.New(apierr.Internal, "the caller's next step failed")
		err := db.InTx(ctx, env.DB.Ent, func(ctx context.Context) error {
			if moved, err := svc.Refund(ctx, seller, first.ID); err != nil || !moved {
				t.Fatalf("refund in a transaction: %v %v", moved, err)
			}
			return errLater
		})
		if !errors.Is(err, errLater) {
			t.Fatalf("transaction: %v", err)
		}
		if o, _ := env.DB.Ent.Order.Get(ctx, first.ID); o.Status != order.StatusDelivered || len(eventsOf(t, env, first.ID)) != 0 {
			t.Fatalf("after a rollback: %s, %d events", o.Status, len(eventsOf(t, env, first.ID)))
		}

		moved, err := svc.Refund(ctx, seller, first.ID)
		if err != nil || !moved {
			t.Fatalf("refund: %v %v", moved, err)
		}
		o, _ := env.DB.Ent.Order.Get(ctx, first.ID)
		evs := eventsOf(t, env, first.ID)
		if o.Status != order.StatusReturnRefund || o.PaymentStatus != "refunded" || len(evs) != 1 || evs[0].Type != "order.return_refund" {
			t.Fatalf("refunded: %s %s, events %d", o.Status, o.PaymentStatus, len(evs))
		}
		if moved, err := svc.Refund(ctx, seller, first.ID); err != nil || moved || len(eventsOf(t, env, first.ID)) != 1 {
			t.Errorf("second refund: %v %v", moved, err)
		}
		if _, err := svc.Refund(ctx, seller, shipped.ID); apierr.CodeOf(err) != apierr.InvalidTransition {
			t.Errorf("a shipped order: %v", err)
		}
		if _, err := svc.Refund(ctx, env.Creds.Sellers[1].SellerID, delivered[len(delivered)-1].ID); apierr.CodeOf(err) != apierr.NotFound {
			t.Errorf("another seller's order: %v", err)
		}
	})
}
