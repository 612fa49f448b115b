package catalog_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	protobuf "google.golang.org/protobuf/proto"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

func cloneProduct(p *catalogv1.Product) *catalogv1.Product {
	return protobuf.Clone(p).(*catalogv1.Product)
}

func statusProto(s catalog.ProductStatus) catalogv1.ProductStatus {
	return map[catalog.ProductStatus]catalogv1.ProductStatus{
		catalog.StatusLive:        catalogv1.ProductStatus_PRODUCT_STATUS_LIVE,
		catalog.StatusUnlisted:    catalogv1.ProductStatus_PRODUCT_STATUS_UNLISTED,
		catalog.StatusDelisted:    catalogv1.ProductStatus_PRODUCT_STATUS_DELISTED,
		catalog.StatusProposed:    catalogv1.ProductStatus_PRODUCT_STATUS_PROPOSED,
		catalog.StatusUnderReview: catalogv1.ProductStatus_PRODUCT_STATUS_UNDER_REVIEW,
		catalog.StatusArchived:    catalogv1.ProductStatus_PRODUCT_STATUS_ARCHIVED,
	}[s]
}

func listedIDs(ps []*catalogv1.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.GetProductId()
	}
	return out
}

func TestListProducts(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		created := h.createN(t, sellerA, 12)
		h.createN(t, sellerB, 2)
		var want []string
		for _, p := range created {
			want = append([]string{p.GetProductId()}, want...)
		}

		// Newest first, walked by cursor while new products keep arriving.
		req := &catalogv1.ListProductsRequest{Limit: ptr(int32(5))}
		var got []string
		for page := int32(1); ; page++ {
			resp, err := h.client.ListProducts(as(sellerA), req)
			if err != nil {
				t.Fatal(err)
			}
			m := resp.GetMeta()
			if m.GetPage() != page || m.GetLimit() != 5 {
				t.Errorf("page %d meta %v", page, m)
			}
			got = append(got, listedIDs(resp.GetData())...)
			if page == 1 {
				if m.GetTotal() != 12 {
					t.Errorf("total %d, want 12", m.GetTotal())
				}
				h.createN(t, sellerA, 2)
			}
			if m.NextCursor == nil {
				break
			}
			req.Cursor = m.NextCursor
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("walk (-want +got):\n%s", diff)
		}

		// page= offsets count from the newest, including the two new ones.
		resp, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Page: ptr(int32(2)), Limit: ptr(int32(5))})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[3:8], listedIDs(resp.GetData())); diff != "" || resp.GetMeta().GetTotal() != 14 {
			t.Errorf("page 2 (total %d) (-want +got):\n%s", resp.GetMeta().GetTotal(), diff)
		}

		// A cursor is bound to its seller and its filter.
		first, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(1))})
		if err != nil {
			t.Fatal(err)
		}
		_, err = h.client.ListProducts(as(sellerB), &catalogv1.ListProductsRequest{Cursor: first.GetMeta().NextCursor})
		wantCode(t, err, apierr.BadRequest, "cursor")
		_, err = h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{
			Cursor: first.GetMeta().NextCursor, Status: ptr(catalogv1.ProductStatus_PRODUCT_STATUS_LIVE)})
		wantCode(t, err, apierr.BadRequest, "cursor")
		cats, err := h.client.ListCategories(as(""), &catalogv1.ListCategoriesRequest{Limit: ptr(int32(1))})
		if err != nil {
			t.Fatal(err)
		}
		_, err = h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Cursor: cats.GetMeta().NextCursor})
		wantCode(t, err, apierr.BadRequest, "cursor")

		for name, r := range map[string]*catalogv1.ListProductsRequest{
			"limit 0":            {Limit: ptr(int32(0))},
			"limit 101":          {Limit: ptr(int32(101))},
			"page 0":             {Page: ptr(int32(0))},
			"status unspecified": {Status: ptr(catalogv1.ProductStatus_PRODUCT_STATUS_UNSPECIFIED)},
			"status undefined":   {Status: ptr(catalogv1.ProductStatus(42))},
		} {
			t.Run(name, func(t *testing.T) {
				_, err := h.client.ListProducts(as(sellerA), r)
				wantCode(t, err, apierr.ValidationError)
			})
		}
	})
}

func TestListProductsStatusFilter(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		ctx := context.Background()
		statuses := []catalog.ProductStatus{
			catalog.StatusLive, catalog.StatusUnlisted, catalog.StatusDelisted,
			catalog.StatusProposed, catalog.StatusUnderReview, catalog.StatusArchived,
		}
		want := map[catalog.ProductStatus][]string{}
		at := h.clock.Now()
		for i, s := range slices.Concat(statuses, statuses) {
			p := storedProduct(sellerA, s, at.Add(time.Duration(i)*time.Second))
			if err := h.store.CreateProduct(ctx, p); err != nil {
				t.Fatal(err)
			}
			want[s] = append([]string{p.ID}, want[s]...)
		}
		// Another seller's products share the statuses.
		for _, s := range statuses {
			if err := h.store.CreateProduct(ctx, storedProduct(sellerB, s, at)); err != nil {
				t.Fatal(err)
			}
		}
		for _, s := range statuses {
			resp, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Status: ptr(statusProto(s))})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want[s], listedIDs(resp.GetData())); diff != "" || resp.GetMeta().GetTotal() != 2 {
				t.Errorf("status %s (total %d) (-want +got):\n%s", s, resp.GetMeta().GetTotal(), diff)
			}
			for _, p := range resp.GetData() {
				if p.GetStatus() != statusProto(s) {
					t.Errorf("status %s listed %v", s, p.GetStatus())
				}
			}
		}
		// Without a filter, every status but archived (deleted products are
		// listed only when asked for).
		all, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{})
		if err != nil || all.GetMeta().GetTotal() != 10 {
			t.Errorf("unfiltered total %d, %v", all.GetMeta().GetTotal(), err)
		}
		// A cursor under a status filter continues under it.
		first, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(1)), Status: ptr(catalogv1.ProductStatus_PRODUCT_STATUS_ARCHIVED)})
		if err != nil {
			t.Fatal(err)
		}
		next, err := h.client.ListProducts(as(sellerA), &catalogv1.ListProductsRequest{Limit: ptr(int32(1)), Cursor: first.GetMeta().NextCursor, Status: ptr(catalogv1.ProductStatus_PRODUCT_STATUS_ARCHIVED)})
		if err != nil {
			t.Fatal(err)
		}
		if got := append(listedIDs(first.GetData()), listedIDs(next.GetData())...); !cmp.Equal(got, want[catalog.StatusArchived]) || next.GetMeta().NextCursor != nil || next.GetMeta().GetPage() != 2 {
			t.Errorf("archived walk %v, want %v (meta %v)", got, want[catalog.StatusArchived], next.GetMeta())
		}
	})
}
