package catalog_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/metadata"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// The catalog's methods behind core's interceptors: internal credential,
// scope, seller token. SQLite is enough: no storage is involved.
func TestAuthorization(t *testing.T) {
	h := newHarness(t, dbtest.SQLite(t))
	p := h.mustCreate(t, sellerA, smartphone())
	update := &catalogv1.UpdateProductRequest{Id: p.GetProductId(), Product: &catalogv1.ProductUpdateInput{Title: ptr("A valid new title")}}
	create := &catalogv1.CreateProductRequest{Product: smartphone()}

	calls := map[string]func(ctx context.Context) error{
		"ListCategories": func(ctx context.Context) error {
			_, err := h.client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{})
			return err
		},
		"ListCategoryAttributes": func(ctx context.Context) error {
			_, err := h.client.ListCategoryAttributes(ctx, &catalogv1.ListCategoryAttributesRequest{Id: "100003"})
			return err
		},
		"CreateProduct": func(ctx context.Context) error {
			_, err := h.client.CreateProduct(ctx, create)
			return err
		},
		"UpdateProduct": func(ctx context.Context) error {
			_, err := h.client.UpdateProduct(ctx, update)
			return err
		},
		"ListProducts": func(ctx context.Context) error {
			_, err := h.client.ListProducts(ctx, &catalogv1.ListProductsRequest{})
			return err
		},
	}
	needs := map[string]struct {
		scope  string
		seller bool
	}{
		"ListCategories":         {"catalog:read", false},
		"ListCategoryAttributes": {"catalog:read", false},
		"CreateProduct":          {"catalog:write", true},
		"UpdateProduct":          {"catalog:write", true},
		"ListProducts":           {"catalog:read", true},
	}
	wrongToken := func() context.Context {
		p := &principal.Principal{AppID: "app_test", Scopes: allScopes, SellerID: sellerA, AccessToken: sellerTokens[sellerB]}
		return metadata.AppendToOutgoingContext(context.Background(), p.AppendMetadata([]string{"authorization", "Bearer " + internalToken})...)
	}
	noCredential := func() context.Context {
		p := &principal.Principal{AppID: "app_test", Scopes: allScopes, SellerID: sellerA, AccessToken: sellerTokens[sellerA]}
		return metadata.AppendToOutgoingContext(context.Background(), p.AppendMetadata(nil)...)
	}
	for name, call := range calls {
		need := needs[name]
		t.Run(name, func(t *testing.T) {
			if err := call(as(sellerA, need.scope)); err != nil {
				t.Errorf("with scope %s and seller: %v", need.scope, err)
			}
			other := "catalog:read"
			if need.scope == other {
				other = "catalog:write"
			}
			wantCode(t, call(as(sellerA, other, "orders:read")), apierr.Forbidden, need.scope)
			wantCode(t, call(noCredential()), apierr.Unauthorized)
			if need.seller {
				wantCode(t, call(as("", allScopes...)), apierr.SellerTokenRequired)
				wantCode(t, call(wrongToken()), apierr.Unauthorized)
			} else if err := call(as("", need.scope)); err != nil {
				t.Errorf("without seller headers: %v", err)
			}
		})
	}
	// A scope check comes before the body is looked at: an invalid body from
	// an app without the scope is FORBIDDEN, not VALIDATION_ERROR.
	_, err := h.client.CreateProduct(as(sellerA, "catalog:read"), &catalogv1.CreateProductRequest{})
	wantCode(t, err, apierr.Forbidden)
}
