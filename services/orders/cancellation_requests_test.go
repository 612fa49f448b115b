package orders_test

import (
	"context"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/orders"
)

// countingRequests is a cancellations domain that answers a pending
// request for every order it is asked about, and counts the questions.
type countingRequests struct{ asked [][]string }

func (c *countingRequests) ForOrders(_ context.Context, _ string, ids []string, now time.Time) (map[string]orders.CancellationRequest, []string, error) {
	c.asked = append(c.asked, ids)
	out := map[string]orders.CancellationRequest{}
	for _, id := range ids {
		out[id] = orders.CancellationRequest{Reason: "changed my mind", RequestedAt: now, RespondBy: now.Add(48 * time.Hour)}
	}
	return out, nil, nil
}

func (c *countingRequests) Latest(ctx context.Context, seller string, ids []string) (map[string]orders.CancellationRequest, error) {
	out, _, err := c.ForOrders(ctx, seller, ids, time.Now())
	return out, err
}

// The order reads ask the cancellations domain only about orders the
// CancellationRequested step stamped: an order nobody asked about costs no
// second query, and a stamped one shows its request. The step is the
// seller's own: another seller's order is 404.
func TestOrderReadsAskOnlyAboutStampedOrders(t *testing.T) {
	backends(t, func(t *testing.T, env *testenv.Env) {
		ctx := context.Background()
		svc := orders.NewService(orders.Config{Store: orders.NewEntStore(env.DB)})
		port := &countingRequests{}
		svc.UseCancellationRequests(port)
		seller := env.Creds.Sellers[0].SellerID
		sctx := principal.WithSeller(ctx, seller)
		ready := sellerOrders(t, env, 0, order.StatusReadyToShip)
		plain, asked := ready[0], ready[1]

		if v, err := svc.GetOrder(sctx, plain.ID); err != nil || v.CancellationRequest != nil || len(port.asked) != 0 {
			t.Fatalf("an order nobody asked about: %+v %v, port asked %v", v.CancellationRequest, err, port.asked)
		}
		if err := svc.CancellationRequested(ctx, seller, asked.ID, time.Now()); err != nil {
			t.Fatal(err)
		}
		v, err := svc.GetOrder(sctx, asked.ID)
		if err != nil || v.CancellationRequest == nil || len(port.asked) != 1 || len(port.asked[0]) != 1 || port.asked[0][0] != asked.ID {
			t.Fatalf("a stamped order: %+v %v, port asked %v", v.CancellationRequest, err, port.asked)
		}
		if err := svc.CancellationRequested(ctx, env.Creds.Sellers[1].SellerID, plain.ID, time.Now()); apierr.CodeOf(err) != apierr.NotFound {
			t.Errorf("another seller's order: %v", err)
		}
	})
}
