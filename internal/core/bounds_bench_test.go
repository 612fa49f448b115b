package core

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
)

// BenchmarkValidateHostileVariants is core's share of a hostile body when a
// gRPC caller sends it: 200,000 empty variants.
func BenchmarkValidateHostileVariants(b *testing.B) {
	ic := newValidating(b)
	in := &catalogv1.ProductCreateInput{Variants: make([]*catalogv1.VariantCreateInput, 200000)}
	for i := range in.Variants {
		in.Variants[i] = &catalogv1.VariantCreateInput{}
	}
	req := &catalogv1.CreateProductRequest{Product: in}
	info := &grpc.UnaryServerInfo{FullMethod: catalogv1.CatalogService_CreateProduct_FullMethodName}
	next := func(context.Context, any) (any, error) { return nil, nil }
	var msgLen int
	for b.Loop() {
		_, err := ic.validate(context.Background(), req, info, next)
		if err == nil {
			b.Fatal("no violation")
		}
		msgLen = len(err.Error())
	}
	b.ReportMetric(float64(msgLen), "msgbytes")
}
