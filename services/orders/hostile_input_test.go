package orders

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/grpccodec"
	"github.com/mallplatform/partnerapi/internal/pagination/paginationtest"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// hostileOrderIDs are hostile path ids as core receives them (the
// gateway decodes %00, %FF and %C0%AF) and others no order can have.
var hostileOrderIDs = []string{"\x00", "\xff", "\xc0\xaf", "ord_\x00", "ord_\xff", "ord_", "ORD_1", "prd_1", "ord_a-b"}

// noQueries is a Store any call of which panics: a service that answers
// without touching it made no query.
type noQueries struct{ Store }

func TestOrderIDsThatCannotExistAreNotLookedUp(t *testing.T) {
	svc := NewService(Config{Store: noQueries{}, Business: clock.NewManual(serviceNow)})
	ctx := principal.WithSeller(context.Background(), "sel_a")
	for _, id := range hostileOrderIDs {
		if _, err := svc.GetOrder(ctx, id); apierr.CodeOf(err) != apierr.NotFound {
			t.Errorf("GetOrder(%q): %v", id, err)
		}
	}
}

// asGateway sends a call with the gateway's codec, which sends invalid UTF-8
// in strings as it is (protobuf-go's refuses to): what the gateway forwards
// from a percent-decoded path.
var asGateway = grpc.ForceCodecV2(grpccodec.New())

// On every driver (PostgreSQL is where such input answered 500), hostile ids
// are NOT_FOUND, and cursors are tamper-evident while genuine ones work.
func TestOrdersHostileInput(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		createSellers(t, d.Ent, "sel_a", "sel_b")
		h := newHarness(t, d, serviceNow)
		seedPresenceFixtures(t, h.store)
		ctx := as(partner("sel_a", "orders:read"))
		for _, id := range hostileOrderIDs {
			if _, err := h.client.GetOrder(ctx, &ordersv1.GetOrderRequest{Id: id}, asGateway); codeOf(err) != apierr.NotFound {
				t.Errorf("GetOrder(%q): %v", id, err)
			}
		}
		status := ordersv1.OrderStatus_ORDER_STATUS_READY_TO_SHIP
		req := &ordersv1.ListOrdersRequest{Status: &status, Limit: ptr(int32(1))}
		first, err := h.client.ListOrders(ctx, req)
		if err != nil || first.GetMeta().NextCursor == nil {
			t.Fatalf("first page: %v", err)
		}
		req.Cursor = first.GetMeta().NextCursor
		if second, err := h.client.ListOrders(ctx, req); err != nil || len(second.GetData()) != 1 || second.GetMeta().GetPage() != 2 {
			t.Fatalf("genuine cursor: %v", err)
		}
		for name, c := range paginationtest.Tampered(t, first.GetMeta().GetNextCursor()) {
			req.Cursor = &c
			if _, err := h.client.ListOrders(ctx, req); codeOf(err) != apierr.BadRequest {
				t.Errorf("%s: %v, want BAD_REQUEST", name, err)
			}
		}
	})
}
