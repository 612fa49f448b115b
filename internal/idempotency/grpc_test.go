package idempotency_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// Direct gRPC callers get the same rules: core checks the key's form and
// fingerprints the request from its method and protobuf bytes.
func TestInternalCallerKeys(t *testing.T) {
	env := testenv.Start(t, testenv.Options{})
	conn := env.DialCore(t, env.InternalCaller(t, "merchandising"))
	client := catalogv1.NewCatalogServiceClient(conn)
	call := func(key, sku string) (*catalogv1.ProductResponse, metadata.MD, error) {
		ctx := metadata.AppendToOutgoingContext(context.Background(),
			principal.KeySellerID, env.Creds.Sellers[0].SellerID, principal.KeyIdempotency, key)
		in := &catalogv1.ProductCreateInput{Title: "Acme Pan 24cm", Category: catalog.CookwareCategoryID,
			Images: []string{"https://img.example.ph/x1.jpg"}, Weight: ptr(1.0), Length: ptr(1.0), Width: ptr(1.0), Height: ptr(1.0),
			AttributeValues: []*catalogv1.AttributeValueInput{{AttributeId: catalog.AttrCookwareMaterial, Value: strValue("Cast iron")}},
			Variants:        []*catalogv1.VariantCreateInput{{Sku: ptr(sku), Price: ptr(int64(100)), Stock: ptr(int64(1))}}}
		var header metadata.MD
		resp, err := client.CreateProduct(ctx, &catalogv1.CreateProductRequest{Product: in}, grpc.Header(&header))
		return resp, header, err
	}
	if _, _, err := call(strings.Repeat("k", 256), "GRPC-1"); reasonOf(err) != "VALIDATION_ERROR" {
		t.Errorf("a 256-character key: %v, want VALIDATION_ERROR", err)
	}
	first, h1, err := call("grpc-key", "GRPC-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(h1.Get(principal.KeyReplayed)) != 0 {
		t.Error("first answer marked replayed")
	}
	second, h2, err := call("grpc-key", "GRPC-1")
	if err != nil {
		t.Fatal(err)
	}
	if second.GetData().GetProductId() != first.GetData().GetProductId() || len(h2.Get(principal.KeyReplayed)) == 0 {
		t.Errorf("repeat: product %s (replay mark %v), want %s replayed", second.GetData().GetProductId(), h2, first.GetData().GetProductId())
	}
	if _, _, err := call("grpc-key", "GRPC-2"); reasonOf(err) != "IDEMPOTENCY_KEY_REUSED" {
		t.Errorf("another request under the key: %v, want IDEMPOTENCY_KEY_REUSED", err)
	}
	if n := countProducts(t, env, "GRPC-1"); n != 1 {
		t.Errorf("products created: %d, want 1", n)
	}
}

func reasonOf(err error) string {
	code, _ := apierr.FromStatus(status.Convert(err))
	if err == nil {
		return ""
	}
	return apierr.Name(code)
}
