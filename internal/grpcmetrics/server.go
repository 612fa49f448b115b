package grpcmetrics

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
)

// Server records the standard gRPC server metrics.
type Server struct {
	vec vectors
}

// NewServer returns the server metrics; register them with Collectors.
func NewServer() *Server {
	s := &Server{vec: vectors{
		started: counter("grpc_server_started_total",
			"Total number of RPCs started on the server.", labelsWithoutCode),
		handled: counter("grpc_server_handled_total",
			"Total number of RPCs completed on the server, regardless of success or failure.", labelsWithCode),
		received: counter("grpc_server_msg_received_total",
			"Total number of RPC stream messages received on the server.", labelsWithoutCode),
		sent: counter("grpc_server_msg_sent_total",
			"Total number of gRPC stream messages sent by the server.", labelsWithoutCode),
	}}
	return s
}

var (
	labelsWithoutCode = []string{"grpc_type", "grpc_service", "grpc_method"}
	labelsWithCode    = []string{"grpc_type", "grpc_service", "grpc_method", "grpc_code"}
)

// Collectors are the metric vectors to register.
func (s *Server) Collectors() []prometheus.Collector { return s.vec.collectors() }

// Unary counts a unary call: started, its request received, its answer sent
// when it succeeded, and handled with the call's code.
func (s *Server) Unary() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		m := s.vec.of(typeUnary, info.FullMethod)
		m.startedCounter().Inc()
		m.receivedCounter().Inc()
		resp, err := handler(ctx, req)
		err = m.countSent(err)
		m.handledCounter(codeOf(err)).Inc()
		return resp, err
	}
}

// Stream counts a streaming call: started, each message received and sent
// without error, and handled with the handler's code.
func (s *Server) Stream() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		m := s.vec.of(streamType(info.IsClientStream, info.IsServerStream), info.FullMethod)
		m.startedCounter().Inc()
		err := handler(srv, &countedServerStream{ServerStream: ss, series: m})
		m.handledCounter(codeOf(err)).Inc()
		return err
	}
}

type countedServerStream struct {
	grpc.ServerStream
	series *series
}

func (s *countedServerStream) SendMsg(msg any) error {
	return s.series.countSent(s.ServerStream.SendMsg(msg))
}

func (s *countedServerStream) RecvMsg(msg any) error {
	return s.series.countReceived(s.ServerStream.RecvMsg(msg))
}
