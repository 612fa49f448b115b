package platform

import (
	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
)

// GRPCServerMetrics registers the standard gRPC server metrics
// (grpc_server_started_total, grpc_server_handled_total{grpc_code},
// grpc_server_msg_{received,sent}_total) on reg and returns core's server
// options that record them. Their interceptors run outermost, so calls
// refused by core's own checks are counted with the code they got. Latency
// stays in mp_core_rpc_duration_seconds: no second histogram per method.
func GRPCServerMetrics(reg prometheus.Registerer) []grpc.ServerOption {
	m := grpcprom.NewServerMetrics()
	reg.MustRegister(m)
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(m.UnaryServerInterceptor()),
		grpc.ChainStreamInterceptor(m.StreamServerInterceptor()),
	}
}

// GRPCClientMetrics registers the standard gRPC client metrics
// (grpc_client_started_total, grpc_client_handled_total{grpc_code},
// grpc_client_handling_seconds, grpc_client_msg_{received,sent}_total) on
// reg and returns the dial options of a connection to core that record
// them: the gateway's view of core, beside core's own.
func GRPCClientMetrics(reg prometheus.Registerer) []grpc.DialOption {
	m := grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram(
		grpcprom.WithHistogramBuckets([]float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}),
	))
	reg.MustRegister(m)
	return []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(m.UnaryClientInterceptor()),
		grpc.WithChainStreamInterceptor(m.StreamClientInterceptor()),
	}
}
