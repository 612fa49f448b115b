package grpcmetrics_test

import (
	"context"
	"testing"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"google.golang.org/grpc"

	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
)

// One unary call through each end's interceptor, ours beside the provider's.
func BenchmarkUnary(b *testing.B) {
	handler := func(context.Context, any) (any, error) { return "resp", nil }
	invoker := func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error { return nil }
	info := &grpc.UnaryServerInfo{FullMethod: "/mp.orders.v1.OrdersService/GetOrder"}
	server := func(b *testing.B, unary grpc.UnaryServerInterceptor) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = unary(context.Background(), "req", info, handler)
		}
	}
	client := func(b *testing.B, unary grpc.UnaryClientInterceptor) {
		b.ReportAllocs()
		for b.Loop() {
			_ = unary(context.Background(), info.FullMethod, "req", nil, nil, invoker)
		}
	}
	b.Run("server", func(b *testing.B) { server(b, grpcmetrics.NewServer().Unary()) })
	b.Run("server/provider", func(b *testing.B) { server(b, grpcprom.NewServerMetrics().UnaryServerInterceptor()) })
	b.Run("client", func(b *testing.B) { client(b, grpcmetrics.NewClient(buckets).Unary()) })
	b.Run("client/provider", func(b *testing.B) {
		client(b, grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram(grpcprom.WithHistogramBuckets(buckets))).UnaryClientInterceptor())
	})
}
