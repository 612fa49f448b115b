package catalog_test

import (
	"context"
	"testing"

	"github.com/mallplatform/partnerapi/ent/product"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/testenv"
)

// On the platform as deployed, the trust and safety team reaches the review
// service on core's port with its own internal caller credential; a caller
// granted other services only, and partners through the gateway, do not.
func TestReviewServiceForInternalCallers(t *testing.T) {
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg})
			ctx := context.Background()
			ids, err := env.DB.Ent.Product.Query().Where(product.StatusEQ(product.StatusProposed)).Limit(2).IDs(ctx)
			if err != nil || len(ids) < 2 {
				t.Fatalf("seeded proposed products: %v %v", ids, err)
			}
			review := catalogv1.NewProductReviewServiceClient(env.DialCore(t, env.InternalCaller(t, "trust-safety")))
			if _, err := review.StartReview(ctx, &catalogv1.StartReviewRequest{Id: ids[0]}); err != nil {
				t.Fatal(err)
			}
			got, err := review.RejectProduct(ctx, &catalogv1.RejectProductRequest{Id: ids[0], Note: "Counterfeit listing"})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetData().GetStatus() != delisted || got.GetData().GetReviewNote() != "Counterfeit listing" {
				t.Errorf("rejected: %v", got.GetData())
			}

			// Granted the review service alone: it still works.
			only := catalogv1.NewProductReviewServiceClient(env.DialCore(t, env.InternalCaller(t, "review-only", "mp.catalog.v1.ProductReviewService")))
			if _, err := only.StartReview(ctx, &catalogv1.StartReviewRequest{Id: ids[1]}); err != nil {
				t.Fatalf("a caller granted the review service: %v", err)
			}
			// Granted other services: refused.
			orders := catalogv1.NewProductReviewServiceClient(env.DialCore(t, env.InternalCaller(t, "orders-only", "mp.orders.v1.OrdersService")))
			_, err = orders.ApproveProduct(ctx, &catalogv1.ApproveProductRequest{Id: ids[1]})
			wantCode(t, err, apierr.Forbidden)
		})
	}
}
