package grpcmetrics

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Client records the standard gRPC client metrics, with
// grpc_client_handling_seconds in the given buckets.
type Client struct {
	vec vectors
}

// NewClient returns the client metrics; register them with Collectors.
func NewClient(buckets []float64) *Client {
	c := &Client{vec: vectors{
		started: counter("grpc_client_started_total",
			"Total number of RPCs started on the client.", labelsWithoutCode),
		handled: counter("grpc_client_handled_total",
			"Total number of RPCs completed by the client, regardless of success or failure.", labelsWithCode),
		received: counter("grpc_client_msg_received_total",
			"Total number of RPC stream messages received by the client.", labelsWithoutCode),
		sent: counter("grpc_client_msg_sent_total",
			"Total number of gRPC stream messages sent by the client.", labelsWithoutCode),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "grpc_client_handling_seconds",
			Help:    "Histogram of response latency (seconds) of the gRPC until it is finished by the application.",
			Buckets: buckets,
		}, labelsWithoutCode),
	}}
	return c
}

// Collectors are the metric vectors to register.
func (c *Client) Collectors() []prometheus.Collector { return c.vec.collectors() }

// Unary counts a unary call: started, its request sent, its answer received
// when it succeeded, handled with the call's code, and its duration.
func (c *Client) Unary() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		start := time.Now()
		m := c.vec.of(typeUnary, method)
		m.startedCounter().Inc()
		m.sentCounter().Inc()
		err := m.countReceived(invoker(ctx, method, req, reply, cc, opts...))
		m.finished(err, start)
		return err
	}
}

// Stream counts a streaming call: started, each message sent and received
// without error, and, when a receive ends the stream (io.EOF counts as OK)
// or the stream cannot be opened, handled with its code and its duration.
func (c *Client) Stream() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		start := time.Now()
		m := c.vec.of(streamType(desc.ClientStreams, desc.ServerStreams), method)
		m.startedCounter().Inc()
		cs, err := streamer(ctx, desc, cc, method, opts...)
		if err != nil {
			m.finished(err, start)
			return nil, err
		}
		return &countedClientStream{ClientStream: cs, series: m, start: start}, nil
	}
}

// finished counts a call's end on the client.
func (s *series) finished(err error, start time.Time) {
	s.handledCounter(codeOf(err)).Inc()
	s.durationObserver().Observe(time.Since(start).Seconds())
}

type countedClientStream struct {
	grpc.ClientStream
	series *series
	start  time.Time
}

func (s *countedClientStream) SendMsg(msg any) error {
	return s.series.countSent(s.ClientStream.SendMsg(msg))
}

func (s *countedClientStream) RecvMsg(msg any) error {
	err := s.series.countReceived(s.ClientStream.RecvMsg(msg))
	if err == nil {
		return nil
	}
	ended := err
	if errors.Is(err, io.EOF) {
		ended = nil
	}
	s.series.finished(ended, s.start)
	return err
}

// codeOf is the call's code as gRPC itself reports it: a status error's code,
// a context error's matching code, otherwise Unknown.
func codeOf(err error) codes.Code {
	if err == nil {
		return codes.OK
	}
	if s, ok := status.FromError(err); ok {
		return s.Code()
	}
	return status.FromContextError(err).Code()
}
