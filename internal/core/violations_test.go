package core

import (
	"errors"
	"strings"
	"testing"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Violations name fields by the path the partner sent: JSON names, no body
// wrapper, and a json_array list as the list itself.
func TestViolationPathsAreWirePaths(t *testing.T) {
	v, err := protovalidate.New()
	if err != nil {
		t.Fatal(err)
	}
	images := make([]string, 21)
	for i := range images {
		images[i] = "https://cdn.example.ph/x.jpg"
	}
	cases := []struct {
		msg  proto.Message
		body string
		want string
	}{
		{&catalogv1.UpdateProductRequest{Id: "p", Product: &catalogv1.ProductUpdateInput{Images: &commonv1.HTTPSURLList{Values: images}}}, "product", "images: "},
		{&catalogv1.UpdateProductRequest{Id: "p", Product: &catalogv1.ProductUpdateInput{Images: &commonv1.HTTPSURLList{Values: []string{"not a url"}}}}, "product", "images[0]: "},
		{&catalogv1.CreateProductRequest{Product: &catalogv1.ProductCreateInput{
			Title: "Cotton shirt", Category: "1", Images: []string{"https://a.ph/1.jpg"}, UseVariantDimensions: true,
			Variants: []*catalogv1.VariantCreateInput{{Price: proto.Int64(-1), Stock: proto.Int64(1), Weight: proto.Float64(1), Length: proto.Float64(1), Width: proto.Float64(1), Height: proto.Float64(1)}},
		}}, "product", "variants[0].price: "},
		{&catalogv1.CreateProductRequest{Product: &catalogv1.ProductCreateInput{
			Title: "Cotton shirt", Category: "1", Images: []string{"https://a.ph/1.jpg"}, AttributeValues: []*catalogv1.AttributeValueInput{{AttributeId: ""}},
			Variants: []*catalogv1.VariantCreateInput{{Price: proto.Int64(1), Stock: proto.Int64(1)}},
		}}, "product", "attribute_values[0].attribute_id: "},
	}
	for _, c := range cases {
		err := v.Validate(c.msg)
		var verr *protovalidate.ValidationError
		if !errors.As(err, &verr) {
			t.Fatalf("%v: no violation (%v)", c.msg, err)
		}
		got := describeViolations(c.msg, verr, c.body)
		if !strings.Contains(got, c.want) || strings.Contains(got, "product.") || strings.Contains(got, ".values") {
			t.Errorf("got %q, want a part starting %q", got, c.want)
		}
	}
}

// A request wrong in thousands of places gets a message of bounded size that
// names the first few violations and counts the rest (every violation used to
// be listed: 4 MB for 50,000 variants).
func TestViolationsAreBounded(t *testing.T) {
	v, err := protovalidate.New()
	if err != nil {
		t.Fatal(err)
	}
	// (Bulk create validates its items one by one, in the service; a
	// single product with 5,000 empty variants is wrong in 10,001 places.)
	req := &catalogv1.CreateProductRequest{Product: &catalogv1.ProductCreateInput{Title: "A valid title", Category: "1",
		Images: []string{"https://img.example.ph/1.jpg"}, UseVariantDimensions: true,
		Variants: make([]*catalogv1.VariantCreateInput, 5000)}}
	for i := range req.Product.Variants {
		w := 1.0
		req.Product.Variants[i] = &catalogv1.VariantCreateInput{Weight: &w, Length: &w, Width: &w, Height: &w}
	}
	var verr *protovalidate.ValidationError
	if !errors.As(v.Validate(req), &verr) || len(verr.Violations) < 10000 {
		t.Fatalf("want thousands of violations, got %v", err)
	}
	got := describeViolations(req, verr, "product")
	if len(got) > apierr.MaxMessageBytes || strings.Count(got, "variants[") > apierr.MaxListedViolations ||
		!strings.HasPrefix(got, "variants") || !strings.Contains(got, "more violations") {
		t.Fatalf("%d bytes: %s", len(got), got)
	}
}
