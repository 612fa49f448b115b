package grpcmetrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
)

// ServerOptions registers the server metrics on reg and returns core's
// server options that record them. Their interceptors run outermost, so
// calls refused by core's own checks are counted with the code they got.
// Latency stays in mp_core_rpc_duration_seconds: no second histogram per
// method.
func ServerOptions(reg prometheus.Registerer) []grpc.ServerOption {
	m := NewServer()
	reg.MustRegister(m.Collectors()...)
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(m.Unary()),
		grpc.ChainStreamInterceptor(m.Stream()),
	}
}

// ClientBuckets are grpc_client_handling_seconds' buckets: the gateway's
// view of core's latency, from half a millisecond to its longest deadline.
var ClientBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}

// DialOptions registers the client metrics on reg and returns the dial
// options of a connection to core that record them: the gateway's view of
// core, beside core's own.
func DialOptions(reg prometheus.Registerer) []grpc.DialOption {
	m := NewClient(ClientBuckets)
	reg.MustRegister(m.Collectors()...)
	return []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(m.Unary()),
		grpc.WithChainStreamInterceptor(m.Stream()),
	}
}
