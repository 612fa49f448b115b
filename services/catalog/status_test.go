package catalog_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/event"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/orders"
)

// reviewToken is the trust and safety team's internal caller credential.
const reviewToken = "test-review-caller-token-0123456789"

// reviewCaller stands in for the auth service's internal caller registry:
// one caller, granted every service open to internal callers.
type reviewCaller struct{}

func (reviewCaller) VerifyInternalCaller(_ context.Context, token string) (*core.InternalCaller, error) {
	if token == reviewToken {
		return &core.InternalCaller{ID: "icl_trust_safety", Name: "trust-safety"}, nil
	}
	return nil, apierr.New(apierr.Unauthorized, "unknown internal caller")
}

// asReviewer is the context of the trust and safety team's calls.
func asReviewer() context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+reviewToken)
}

var (
	live        = catalogv1.ProductStatus_PRODUCT_STATUS_LIVE
	unlisted    = catalogv1.ProductStatus_PRODUCT_STATUS_UNLISTED
	delisted    = catalogv1.ProductStatus_PRODUCT_STATUS_DELISTED
	proposed    = catalogv1.ProductStatus_PRODUCT_STATUS_PROPOSED
	underReview = catalogv1.ProductStatus_PRODUCT_STATUS_UNDER_REVIEW
	archived    = catalogv1.ProductStatus_PRODUCT_STATUS_ARCHIVED
)

func (h *harness) get(ctx context.Context, id string) (*catalogv1.Product, error) {
	resp, err := h.client.GetProduct(ctx, &catalogv1.GetProductRequest{Id: id})
	return resp.GetData(), err
}

func (h *harness) setStatus(ctx context.Context, id string, to catalogv1.ProductStatus, expected *catalogv1.ProductStatus) (*catalogv1.Product, error) {
	resp, err := h.client.SetProductStatus(ctx, &catalogv1.SetProductStatusRequest{Id: id,
		Change: &catalogv1.ProductStatusChange{Status: to, ExpectedStatus: expected}})
	return resp.GetData(), err
}

func (h *harness) del(ctx context.Context, id string) (*catalogv1.Product, error) {
	resp, err := h.client.DeleteProduct(ctx, &catalogv1.DeleteProductRequest{Id: id})
	return resp.GetData(), err
}

// approved creates a product of seller and takes it through the review to
// live, as the trust and safety team does.
func (h *harness) approved(t testing.TB, seller string) *catalogv1.Product {
	t.Helper()
	p := h.mustCreate(t, seller, smartphone())
	if _, err := h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: p.GetProductId()}); err != nil {
		t.Fatal(err)
	}
	resp, err := h.review.ApproveProduct(asReviewer(), &catalogv1.ApproveProductRequest{Id: p.GetProductId()})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetData()
}

// statusEvents returns the data of the product's product.status_changed
// events, oldest first.
func statusEvents(t testing.TB, d *db.DB, id string) []*catalogv1.Product {
	t.Helper()
	rows, err := d.Ent.Event.Query().
		Where(event.ResourceID(id), event.Type("product.status_changed")).
		Order(ent.Asc(event.FieldSequence)).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*catalogv1.Product, len(rows))
	for i, r := range rows {
		var view struct {
			Status     string  `json:"status"`
			ProductID  string  `json:"product_id"`
			ReviewNote *string `json:"review_note"`
		}
		if err := json.Unmarshal(r.Data, &view); err != nil {
			t.Fatalf("event data %s: %v", r.Data, err)
		}
		if view.ProductID != id {
			t.Errorf("event of %s carries product %q", id, view.ProductID)
		}
		out[i] = &catalogv1.Product{ProductId: view.ProductID, Status: wireStatus(t, view.Status), ReviewNote: view.ReviewNote}
	}
	return out
}

var wireStatuses = map[string]catalogv1.ProductStatus{"live": live, "unlisted": unlisted, "delisted": delisted,
	"proposed": proposed, "under_review": underReview, "archived": archived}

func wireStatus(t testing.TB, s string) catalogv1.ProductStatus {
	t.Helper()
	st, ok := wireStatuses[s]
	if !ok {
		t.Fatalf("status %q is not a product status", s)
	}
	return st
}

func statuses(ps []*catalogv1.Product) []catalogv1.ProductStatus {
	out := make([]catalogv1.ProductStatus, len(ps))
	for i, p := range ps {
		out[i] = p.GetStatus()
	}
	return out
}

func TestGetProduct(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		created := h.mustCreate(t, sellerA, smartphone())
		got, err := h.get(as(sellerA, "catalog:read"), created.GetProductId())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(created, got, protocmp.Transform()); diff != "" {
			t.Errorf("read product (-created +read):\n%s", diff)
		}
		if got.ReviewNote != nil {
			t.Errorf("a product never reviewed carries a review note %q", got.GetReviewNote())
		}
		for name, id := range map[string]string{
			"another seller's": created.GetProductId(),
			"unknown":          ids.New("prd"),
			"not an id":        "Acme Phone X",
		} {
			seller := sellerA
			if name == "another seller's" {
				seller = sellerB
			}
			_, err := h.get(as(seller), id)
			wantCode(t, err, apierr.NotFound)
		}
		_, err = h.get(as(sellerA, "catalog:write"), created.GetProductId())
		wantCode(t, err, apierr.Forbidden)
	})
}

func TestSetProductStatus(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := as(sellerA)

		// Proposed and under review: the platform's review decides.
		p := h.mustCreate(t, sellerA, smartphone())
		id := p.GetProductId()
		for _, to := range []catalogv1.ProductStatus{live, unlisted, delisted} {
			_, err := h.setStatus(ctx, id, to, nil)
			wantCode(t, err, apierr.ProductUnderReview, "proposed")
		}
		if _, err := h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: id}); err != nil {
			t.Fatal(err)
		}
		_, err := h.setStatus(ctx, id, live, nil)
		wantCode(t, err, apierr.ProductUnderReview, "under_review")
		if _, err := h.review.ApproveProduct(asReviewer(), &catalogv1.ApproveProductRequest{Id: id}); err != nil {
			t.Fatal(err)
		}
		events := len(statusEvents(t, d, id))

		// Between live, unlisted and delisted, every way; each move one
		// event whose data is the product as moved.
		from := live
		for _, to := range []catalogv1.ProductStatus{unlisted, delisted, live, delisted, unlisted, live} {
			h.clock.Advance(time.Minute)
			got, err := h.setStatus(ctx, id, to, nil)
			if err != nil {
				t.Fatalf("%s → %s: %v", from, to, err)
			}
			if got.GetStatus() != to || !got.GetUpdatedAt().AsTime().Equal(h.clock.Now()) {
				t.Errorf("%s → %s: status %s, updated_at %v (clock %v)", from, to, got.GetStatus(), got.GetUpdatedAt().AsTime(), h.clock.Now())
			}
			evs := statusEvents(t, d, id)
			if len(evs) != events+1 || evs[len(evs)-1].GetStatus() != to {
				t.Fatalf("%s → %s: events %v", from, to, statuses(evs))
			}
			events++
			from = to
		}

		// The same status again: 200, nothing changes, no event.
		before, _ := h.get(ctx, id)
		h.clock.Advance(time.Minute)
		same, err := h.setStatus(ctx, id, live, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before, same, protocmp.Transform()); diff != "" {
			t.Errorf("setting the same status changed the product:\n%s", diff)
		}
		if n := len(statusEvents(t, d, id)); n != events {
			t.Errorf("the same status recorded an event: %d events, want %d", n, events)
		}

		// expectedStatus: a guard that does not hold is 409 and moves
		// nothing; one that holds moves.
		_, err = h.setStatus(ctx, id, unlisted, &delisted)
		wantCode(t, err, apierr.ConcurrentModification, "delisted", "live")
		_, err = h.setStatus(ctx, id, live, &unlisted)
		wantCode(t, err, apierr.ConcurrentModification)
		if now, _ := h.get(ctx, id); now.GetStatus() != live {
			t.Fatalf("a failed guard moved the product to %s", now.GetStatus())
		}
		if got, err := h.setStatus(ctx, id, unlisted, &live); err != nil || got.GetStatus() != unlisted {
			t.Fatalf("guarded move: %v %v", got.GetStatus(), err)
		}
		if got, err := h.setStatus(ctx, id, unlisted, &unlisted); err != nil || got.GetStatus() != unlisted {
			t.Fatalf("guarded same status: %v %v", got.GetStatus(), err)
		}
		events++
		if n := len(statusEvents(t, d, id)); n != events {
			t.Errorf("events after the guarded moves: %d, want %d", n, events)
		}

		// Archived: no status moves it any more.
		if _, err := h.del(ctx, id); err != nil {
			t.Fatal(err)
		}
		for _, to := range []catalogv1.ProductStatus{live, unlisted, delisted} {
			_, err := h.setStatus(ctx, id, to, nil)
			wantCode(t, err, apierr.InvalidTransition, "archived")
		}
		_, err = h.setStatus(ctx, id, live, &live)
		wantCode(t, err, apierr.ConcurrentModification)

		// Platform statuses are not the partner's to set; another seller's
		// product is not found.
		other := h.approved(t, sellerA)
		for _, to := range []catalogv1.ProductStatus{proposed, underReview, archived, catalogv1.ProductStatus_PRODUCT_STATUS_UNSPECIFIED} {
			_, err := h.setStatus(ctx, other.GetProductId(), to, nil)
			wantCode(t, err, apierr.ValidationError)
		}
		_, err = h.setStatus(as(sellerB), other.GetProductId(), unlisted, nil)
		wantCode(t, err, apierr.NotFound)
		_, err = h.setStatus(ctx, ids.New("prd"), unlisted, nil)
		wantCode(t, err, apierr.NotFound)
		_, err = h.setStatus(as(sellerA, "catalog:read"), other.GetProductId(), unlisted, nil)
		wantCode(t, err, apierr.Forbidden)
	})
}

// Partners racing on one product with the same guard: the conditional
// UPDATE lets exactly one win; the others learn the product moved.
func TestSetProductStatusCompareAndSwapRace(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		id := h.approved(t, sellerA).GetProductId()
		before := len(statusEvents(t, d, id))
		const racers = 8
		var wg sync.WaitGroup
		errs := make([]error, racers)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				to := unlisted
				if i%2 == 1 {
					to = delisted
				}
				_, errs[i] = h.setStatus(as(sellerA), id, to, &live)
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
				continue
			}
			wantCode(t, err, apierr.ConcurrentModification)
		}
		if won != 1 {
			t.Fatalf("%d racers won, want exactly 1", won)
		}
		if n := len(statusEvents(t, d, id)) - before; n != 1 {
			t.Errorf("%d events for one move", n)
		}
	})
}

func TestReviewSteps(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		p := h.mustCreate(t, sellerA, smartphone())
		id := p.GetProductId()
		if p.GetStatus() != proposed {
			t.Fatalf("a created product is %s", p.GetStatus())
		}

		// The steps only apply in order.
		_, err := h.review.ApproveProduct(asReviewer(), &catalogv1.ApproveProductRequest{Id: id})
		wantCode(t, err, apierr.InvalidTransition, "proposed")
		_, err = h.review.RejectProduct(asReviewer(), &catalogv1.RejectProductRequest{Id: id, Note: "no"})
		wantCode(t, err, apierr.InvalidTransition)

		h.clock.Advance(time.Minute)
		inReview, err := h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: id})
		if err != nil {
			t.Fatal(err)
		}
		if inReview.GetData().GetStatus() != underReview || !inReview.GetData().GetUpdatedAt().AsTime().Equal(h.clock.Now()) {
			t.Fatalf("start review: %v", inReview.GetData())
		}
		_, err = h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: id})
		wantCode(t, err, apierr.InvalidTransition, "under_review")
		// Read-only to partners while in review.
		_, err = h.update(as(sellerA), id, &catalogv1.ProductUpdateInput{Title: ptr("Acme Phone X renamed")})
		wantCode(t, err, apierr.ProductUnderReview)

		approved, err := h.review.ApproveProduct(asReviewer(), &catalogv1.ApproveProductRequest{Id: id})
		if err != nil {
			t.Fatal(err)
		}
		if approved.GetData().GetStatus() != live || approved.GetData().ReviewNote != nil {
			t.Fatalf("approved: %v", approved.GetData())
		}
		if got := statuses(statusEvents(t, d, id)); !cmp.Equal(got, []catalogv1.ProductStatus{underReview, live}) {
			t.Errorf("events of start review and approve: %v", got)
		}

		// Rejected: delisted, and the partner reads the note on the
		// product (and in the event).
		q := h.mustCreate(t, sellerB, smartphone())
		if _, err := h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: q.GetProductId()}); err != nil {
			t.Fatal(err)
		}
		note := "Images show a different product than the title names"
		rejected, err := h.review.RejectProduct(asReviewer(), &catalogv1.RejectProductRequest{Id: q.GetProductId(), Note: note})
		if err != nil {
			t.Fatal(err)
		}
		read, err := h.get(as(sellerB), q.GetProductId())
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range []*catalogv1.Product{rejected.GetData(), read} {
			if got.GetStatus() != delisted || got.GetReviewNote() != note {
				t.Errorf("rejected product: %s %q", got.GetStatus(), got.GetReviewNote())
			}
		}
		evs := statusEvents(t, d, q.GetProductId())
		if len(evs) != 2 || evs[1].GetReviewNote() != note {
			t.Errorf("reject event: %v", evs)
		}
		// A reject needs its note (protovalidate); unknown products are not
		// found whoever asks.
		_, err = h.review.RejectProduct(asReviewer(), &catalogv1.RejectProductRequest{Id: id})
		wantCode(t, err, apierr.ValidationError)
		_, err = h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: ids.New("prd")})
		wantCode(t, err, apierr.NotFound)

		// Partners (through the gateway) never reach the review; neither
		// does a call without a credential.
		_, err = h.review.StartReview(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer wrong-token-0123456789"),
			&catalogv1.StartReviewRequest{Id: id})
		wantCode(t, err, apierr.Unauthorized)
	})
}

// placeOrder writes an order of seller in status st holding the variant.
func placeOrder(t testing.TB, d *db.DB, seller, productID, variantID string, st orders.Status) {
	t.Helper()
	id := ids.New("ord")
	now := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	addr := orders.Address{Name: "Ana Reyes", Line1: "12 Rizal St.", City: "City of Makati", Province: "NCR",
		PostalCode: "1200", Country: "PH", Phone: "+639171234567"}
	o := &orders.Order{
		ID: id, SellerID: seller, CustomerID: "cus_1", Status: st, Currency: "PHP", Subtotal: 1000, Total: 1000,
		PaymentStatus: "paid", FulfillmentStatus: "unfulfilled", ShippingAddress: addr, BillingAddress: addr,
		CreatedAt: now, UpdatedAt: now,
		Items: []orders.Item{{ID: id + "_1", OrderID: id, ProductID: productID, VariantID: &variantID, Title: "Phone",
			Quantity: 1, UnitPrice: 1000, TotalPrice: 1000}},
	}
	if err := orders.NewEntStore(d).CreateOrders(context.Background(), []*orders.Order{o}); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteProduct(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := as(sellerA)
		twoVariants := func() *catalogv1.ProductCreateInput {
			in := smartphone()
			in.Variants = append(in.Variants, &catalogv1.VariantCreateInput{Sku: ptr(uniqueSKU("ACME-X-256")), Price: ptr(int64(1_699_900)), Stock: ptr(int64(3))})
			return in
		}
		p := h.mustCreate(t, sellerA, twoVariants())
		id := p.GetProductId()
		second := p.GetVariants()[1].GetVariantId()

		// An unshipped order on any variant holds the product.
		for _, st := range []orders.Status{orders.StatusPending, orders.StatusPaid, orders.StatusReadyToShip} {
			q := h.mustCreate(t, sellerA, twoVariants())
			placeOrder(t, d, sellerA, q.GetProductId(), q.GetVariants()[1].GetVariantId(), st)
			_, err := h.del(ctx, q.GetProductId())
			wantCode(t, err, apierr.ProductHasActiveOrders, "ship or cancel")
			if now, _ := h.get(ctx, q.GetProductId()); now.GetStatus() != proposed {
				t.Errorf("%s: a refused delete left the product %s", st, now.GetStatus())
			}
			if n := len(statusEvents(t, d, q.GetProductId())); n != 0 {
				t.Errorf("%s: a refused delete recorded %d events", st, n)
			}
		}
		// Orders past shipment, another seller's order on the same variant
		// id, and orders on other variants do not.
		for _, st := range []orders.Status{orders.StatusShipped, orders.StatusDelivered, orders.StatusCancelled, orders.StatusReturnRefund} {
			placeOrder(t, d, sellerA, id, second, st)
		}
		placeOrder(t, d, sellerB, id, second, orders.StatusPaid)
		placeOrder(t, d, sellerA, "prd_other", "var_other", orders.StatusPaid)

		h.clock.Advance(time.Minute)
		gone, err := h.del(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if gone.GetStatus() != archived || !gone.GetUpdatedAt().AsTime().Equal(h.clock.Now()) {
			t.Fatalf("deleted: %s at %v", gone.GetStatus(), gone.GetUpdatedAt().AsTime())
		}
		// A second delete answers the same, without a second event.
		h.clock.Advance(time.Minute)
		again, err := h.del(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(gone, again, protocmp.Transform()); diff != "" {
			t.Errorf("second delete (-first +second):\n%s", diff)
		}
		if got := statuses(statusEvents(t, d, id)); !cmp.Equal(got, []catalogv1.ProductStatus{archived}) {
			t.Errorf("events of two deletes: %v", got)
		}
		// Still the seller's to read; gone from the default listing, listed
		// by status; no longer updatable.
		if read, err := h.get(ctx, id); err != nil || read.GetStatus() != archived {
			t.Errorf("read after delete: %v %v", read.GetStatus(), err)
		}
		_, err = h.update(ctx, id, &catalogv1.ProductUpdateInput{Title: ptr("Acme Phone X renamed")})
		wantCode(t, err, apierr.NotFound)

		_, err = h.del(as(sellerB), id)
		wantCode(t, err, apierr.NotFound)
		_, err = h.del(ctx, ids.New("prd"))
		wantCode(t, err, apierr.NotFound)
		_, err = h.del(as(sellerA, "catalog:read"), id)
		wantCode(t, err, apierr.Forbidden)

		// A product under review can be deleted too.
		r := h.mustCreate(t, sellerA, smartphone())
		if _, err := h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: r.GetProductId()}); err != nil {
			t.Fatal(err)
		}
		if got, err := h.del(ctx, r.GetProductId()); err != nil || got.GetStatus() != archived {
			t.Fatalf("delete under review: %v %v", got.GetStatus(), err)
		}
	})
}

// Every status of the spec filters the listing; without a filter, archived
// products are left out.
func TestListProductsByEveryStatus(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := as(sellerA)
		byStatus := map[catalogv1.ProductStatus]string{}
		byStatus[proposed] = h.mustCreate(t, sellerA, smartphone()).GetProductId()
		p := h.mustCreate(t, sellerA, smartphone())
		if _, err := h.review.StartReview(asReviewer(), &catalogv1.StartReviewRequest{Id: p.GetProductId()}); err != nil {
			t.Fatal(err)
		}
		byStatus[underReview] = p.GetProductId()
		byStatus[live] = h.approved(t, sellerA).GetProductId()
		for _, st := range []catalogv1.ProductStatus{unlisted, delisted} {
			id := h.approved(t, sellerA).GetProductId()
			if _, err := h.setStatus(ctx, id, st, nil); err != nil {
				t.Fatal(err)
			}
			byStatus[st] = id
		}
		a := h.approved(t, sellerA).GetProductId()
		if _, err := h.del(ctx, a); err != nil {
			t.Fatal(err)
		}
		byStatus[archived] = a
		// Another seller's products of every status stay out.
		h.approved(t, sellerB)

		for st, id := range byStatus {
			resp, err := h.client.ListProducts(ctx, &catalogv1.ListProductsRequest{Status: &st})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.GetData()) != 1 || resp.GetData()[0].GetProductId() != id || resp.GetMeta().GetTotal() != 1 {
				t.Errorf("status=%s lists %v (total %d), want %s", st, statuses(resp.GetData()), resp.GetMeta().GetTotal(), id)
			}
		}
		resp, err := h.client.ListProducts(ctx, &catalogv1.ListProductsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(resp.GetData()); n != 5 || resp.GetMeta().GetTotal() != 5 {
			t.Errorf("default listing: %d products (total %d), want the 5 not archived", n, resp.GetMeta().GetTotal())
		}
		for _, got := range resp.GetData() {
			if got.GetStatus() == archived {
				t.Errorf("default listing shows archived %s", got.GetProductId())
			}
		}
	})
}
