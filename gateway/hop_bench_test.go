package gateway_test

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/test/bufconn"

	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/grpccodec"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// BenchmarkGRPCHopGetOrder is the gRPC hop alone: the call the gateway makes
// to the stub core of BenchmarkGatewayOverheadGetOrder, over the same
// connection options and with the principal's metadata, made directly, and
// its answer received as the gateway receives it, as its encoding (the
// gateway renders it from the wire). The gateway's own allocations per
// request are that benchmark's less this one (docs/performance.md,
// "Allocation budget").
func BenchmarkGRPCHopGetOrder(b *testing.B) {
	stub := &stubCore{secret: []byte("bench-secret-bench-secret"), order: benchOrder()}
	gs := grpc.NewServer()
	credentialsv1.RegisterCredentialServiceServer(gs, stub)
	ordersv1.RegisterOrdersServiceServer(gs, stub)
	lis := bufconn.Listen(1 << 20)
	go func() { _ = gs.Serve(lis) }()
	b.Cleanup(gs.Stop)
	conn, err := platform.DialCore("passthrough:///core", "bench-internal-token", grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
		return lis.DialContext(ctx)
	}))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	raw := &grpccodec.Raw{}
	call := func(ctx context.Context) error {
		return conn.Invoke(ctx, ordersv1.OrdersService_GetOrder_FullMethodName, &ordersv1.GetOrderRequest{Id: "ord_1"}, raw,
			grpc.ForceCodecV2(grpccodec.New()))
	}
	p := &principal.Principal{AppID: "app_1", ClientID: "test_bench", AccountID: "acc_1", Environment: "sandbox",
		Scopes: []string{"orders:read"}, SellerID: "slr_1", AccessToken: "mpat_benchbenchbenchbench"}
	// The gateway's calls carry a deadline (Config.RequestTimeout), which
	// gRPC sends as grpc-timeout and the server turns into a timer: part of
	// the hop, paid on both sides of it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, p.AppendMetadata(nil)...)
	// One call before the timer opens the connection, as the gateway's
	// benchmark serves one request first.
	if err := call(ctx); err != nil || len(raw.Bytes) == 0 {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := call(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
