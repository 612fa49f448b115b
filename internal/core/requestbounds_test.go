package core

import (
	"context"
	"strings"
	"testing"

	"buf.build/go/protovalidate"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/policy"
)

func newValidating(t testing.TB) *interceptors {
	t.Helper()
	v, err := protovalidate.New()
	if err != nil {
		t.Fatal(err)
	}
	table, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &interceptors{validator: v, table: table}
}

// validateCall runs the validate interceptor as core's chain would for a
// gRPC caller, and reports whether the handler was reached.
func validateCall(ic *interceptors, method string, req proto.Message) (reached bool, err error) {
	info := &grpc.UnaryServerInfo{FullMethod: method}
	_, err = ic.validate(context.Background(), req, info, func(context.Context, any) (any, error) {
		reached = true
		return nil, nil
	})
	return reached, err
}

// validProduct passes protovalidate; tests spoil one field at a time.
func validProduct() *catalogv1.ProductCreateInput {
	return &catalogv1.ProductCreateInput{
		Title: "Cotton shirt", Category: "100003", Images: []string{"https://a.ph/1.jpg"},
		Weight: proto.Float64(1), Length: proto.Float64(1), Width: proto.Float64(1), Height: proto.Float64(1),
		AttributeValues: []*catalogv1.AttributeValueInput{{AttributeId: "100001-brand", Value: structpb.NewStringValue("Acme")}},
		Variants: []*catalogv1.VariantCreateInput{{
			Sku: proto.String("SKU-1"), Price: proto.Int64(100), Stock: proto.Int64(1),
			Options: []*catalogv1.OptionInput{{Name: "Size", Value: "M"}},
		}},
	}
}

// gRPC callers bypass the gateway's decoder: core refuses text PostgreSQL
// cannot store (NUL, invalid UTF-8) in any string of the request, naming the
// field as the partner would, before the handler runs (it answered 500
// on PostgreSQL).
func TestValidateRefusesUnstorableText(t *testing.T) {
	ic := newValidating(t)
	create := catalogv1.CatalogService_CreateProduct_FullMethodName
	cases := []struct {
		spoil func(p *catalogv1.ProductCreateInput)
		want  string
	}{
		{func(p *catalogv1.ProductCreateInput) { p.Title = "Cotton\x00shirt" }, "title: must not contain the NUL character"},
		{func(p *catalogv1.ProductCreateInput) { p.Description = proto.String("\x00") }, "description: must not contain the NUL character"},
		{func(p *catalogv1.ProductCreateInput) { p.Category = "100\xff03" }, "category: must be valid UTF-8"},
		{func(p *catalogv1.ProductCreateInput) { p.Category = "\xc0\xaf" }, "category: must be valid UTF-8"},
		{func(p *catalogv1.ProductCreateInput) { p.Variants[0].Sku = proto.String("SKU\x00") }, "variants[0].sku: must not contain"},
		{func(p *catalogv1.ProductCreateInput) { p.Variants[0].Options[0].Value = "M\x00" }, "variants[0].options[0].value: must not contain"},
		{func(p *catalogv1.ProductCreateInput) { p.AttributeValues[0].Value = structpb.NewStringValue("A\x00") }, "attribute_values[0].value: must not contain"},
		{func(p *catalogv1.ProductCreateInput) {
			p.AttributeValues[0].Value = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"k\x00": structpb.NewNullValue()}})
		}, `attribute_values[0].value["k\x00"]: key must not contain`},
	}
	for _, c := range cases {
		p := validProduct()
		if reached, err := validateCall(ic, create, &catalogv1.CreateProductRequest{Product: p}); !reached || err != nil {
			t.Fatalf("the valid product is refused: %v", err)
		}
		c.spoil(p)
		reached, err := validateCall(ic, create, &catalogv1.CreateProductRequest{Product: p})
		e, ok := apierr.As(err)
		if reached || !ok || e.Code != apierr.ValidationError || !strings.HasPrefix(e.Message, c.want) {
			t.Errorf("reached %v, got %v, want VALIDATION_ERROR %q…", reached, err, c.want)
		}
	}
	// An update's images travel as a JSON list: the path is the list's.
	upd := &catalogv1.UpdateProductRequest{Id: "prd_x", Product: &catalogv1.ProductUpdateInput{Images: &commonv1.HTTPSURLList{Values: []string{"https://a.ph/\x00"}}}}
	if _, err := validateCall(ic, catalogv1.CatalogService_UpdateProduct_FullMethodName, upd); err == nil || !strings.HasPrefix(err.(*apierr.Error).Message, "images[0]: ") {
		t.Errorf("update images: %v", err)
	}
}

// Ids bound from the URL path are the services' to judge: they answer
// NOT_FOUND for an id that cannot exist, as the issue asks, so the walk
// lets them through to the handler.
func TestValidateLeavesPathIDsToTheServices(t *testing.T) {
	ic := newValidating(t)
	for _, id := range []string{"\x00", "\xff", "\xc0\xaf", "ord_\x00"} {
		reached, err := validateCall(ic, ordersv1.OrdersService_GetOrder_FullMethodName, &ordersv1.GetOrderRequest{Id: id})
		if !reached || err != nil {
			t.Errorf("GetOrder %q: reached %v, %v", id, reached, err)
		}
	}
}

// A list longer than its max_items rule is refused before protovalidate
// looks at its items, and a request with thousands of violations gets a
// message of bounded size.
func TestValidateBoundsWorkAndMessage(t *testing.T) {
	ic := newValidating(t)
	in := &catalogv1.ProductCreateInput{Variants: make([]*catalogv1.VariantCreateInput, 200000)}
	for i := range in.Variants {
		in.Variants[i] = &catalogv1.VariantCreateInput{}
	}
	_, err := validateCall(ic, catalogv1.CatalogService_CreateProduct_FullMethodName, &catalogv1.CreateProductRequest{Product: in})
	if e, ok := apierr.As(err); !ok || e.Message != "variants: must contain at most 100 items" {
		t.Fatalf("200,000 variants: %v", err)
	}
	bulk := &catalogv1.BulkCreateProductsRequest{Products: make([]*catalogv1.ProductCreateInput, 5000)}
	for i := range bulk.Products {
		bulk.Products[i] = &catalogv1.ProductCreateInput{}
	}
	// Bulk create's items are validated one by one by the service (so one
	// bad item fails only itself): the interceptor checks the list's size.
	reached, err := validateCall(ic, catalogv1.CatalogService_BulkCreateProducts_FullMethodName, bulk)
	if !reached || err != nil {
		t.Fatalf("5,000 invalid products: reached %v, %v", reached, err)
	}
	bulk.Products = append(bulk.Products, &catalogv1.ProductCreateInput{})
	_, err = validateCall(ic, catalogv1.CatalogService_BulkCreateProducts_FullMethodName, bulk)
	if e, ok := apierr.As(err); !ok || e.Message != "products: must contain at most 5000 items" {
		t.Fatalf("5,001 products: %v", err)
	}
	bulk.Products = nil
	_, err = validateCall(ic, catalogv1.CatalogService_BulkCreateProducts_FullMethodName, bulk)
	if e, ok := apierr.As(err); !ok || !strings.Contains(e.Message, "products: must contain at least 1 item") {
		t.Fatalf("no products: %v", err)
	}
}

// BenchmarkCheckBounds is the walk's cost on a valid request of the largest
// ordinary size: 100 variants with options and images.
func BenchmarkCheckBounds(b *testing.B) {
	p := validProduct()
	v := p.Variants[0]
	v.Images = []string{"https://a.ph/1.jpg", "https://a.ph/2.jpg"}
	v.Options = append(v.Options, &catalogv1.OptionInput{Name: "Colour", Value: "Red"})
	for range 99 {
		p.Variants = append(p.Variants, proto.Clone(v).(*catalogv1.VariantCreateInput))
	}
	req := &catalogv1.CreateProductRequest{Product: p}
	b.ReportAllocs()
	for b.Loop() {
		if err := checkBounds(req, "product", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProtovalidate is protovalidate's cost on the same request, for
// scale.
func BenchmarkProtovalidate(b *testing.B) {
	ic := newValidating(b)
	p := validProduct()
	v := p.Variants[0]
	v.Images = []string{"https://a.ph/1.jpg", "https://a.ph/2.jpg"}
	v.Options = append(v.Options, &catalogv1.OptionInput{Name: "Colour", Value: "Red"})
	for range 99 {
		p.Variants = append(p.Variants, proto.Clone(v).(*catalogv1.VariantCreateInput))
	}
	req := &catalogv1.CreateProductRequest{Product: p}
	b.ReportAllocs()
	for b.Loop() {
		if err := ic.validator.Validate(req); err != nil {
			b.Fatal(err)
		}
	}
}
