// Package grpcmetrics records the standard gRPC Prometheus metrics
// (grpc_{server,client}_started_total, _handled_total{grpc_code},
// _msg_received_total, _msg_sent_total and grpc_client_handling_seconds)
// with the names, help, labels, buckets and counting rules of
// go-grpc-middleware's prometheus provider, so dashboards and alerts written
// for it read these series unchanged.
//
// What differs is the cost of a call. The provider builds a reporter and its
// options for every call and looks each series up by its label values five
// times a call (hashing the labels and taking the vector's lock each time).
// Here a method's series are resolved on its first call and kept: a call
// costs one map read and the counters' own atomic adds. The comparison test
// holds both to the same gathered registry for the same calls.
package grpcmetrics

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc/codes"
)

// The label values of grpc_type, as the provider spells them.
const (
	typeUnary        = "unary"
	typeClientStream = "client_stream"
	typeServerStream = "server_stream"
	typeBidiStream   = "bidi_stream"
)

func streamType(clientStreams, serverStreams bool) string {
	switch {
	case clientStreams && !serverStreams:
		return typeClientStream
	case !clientStreams && serverStreams:
		return typeServerStream
	}
	return typeBidiStream
}

// vectors are one side's (server or client) metric vectors.
type vectors struct {
	started, handled, received, sent *prometheus.CounterVec
	// duration is grpc_client_handling_seconds; nil on the server, where
	// core's own histogram has the latency.
	duration *prometheus.HistogramVec
	// methods keeps each method's series once made, so that a call does
	// not hash its labels and take a vector's lock for each of them.
	methods sync.Map // methodKey → *series
}

// counter is one of the standard counters, as the provider defines it.
func counter(name, help string, labels []string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

func (v *vectors) collectors() []prometheus.Collector {
	cs := []prometheus.Collector{v.started, v.handled, v.received, v.sent}
	if v.duration != nil {
		cs = append(cs, v.duration)
	}
	return cs
}

// series are one method's resolved series. Each is resolved on first use,
// so that, as with the provider, a series exists only once it has counted
// (a method that has only failed has no grpc_*_msg_sent_total series).
type series struct {
	vec    *vectors
	labels []string // grpc_type, grpc_service, grpc_method

	started, received, sent slot[prometheus.Counter]
	handled                 [codes.Unauthenticated + 1]slot[prometheus.Counter]
	duration                slot[prometheus.Observer]
}

// slot holds one resolved series.
type slot[T any] struct{ p atomic.Pointer[T] }

func (s *slot[T]) get(resolve func() T) T {
	if p := s.p.Load(); p != nil {
		return *p
	}
	// Two first calls may both resolve: the vector hands both the same series.
	v := resolve()
	s.p.Store(&v)
	return v
}

func (s *series) startedCounter() prometheus.Counter {
	return s.started.get(func() prometheus.Counter { return s.vec.started.WithLabelValues(s.labels...) })
}

func (s *series) receivedCounter() prometheus.Counter {
	return s.received.get(func() prometheus.Counter { return s.vec.received.WithLabelValues(s.labels...) })
}

func (s *series) sentCounter() prometheus.Counter {
	return s.sent.get(func() prometheus.Counter { return s.vec.sent.WithLabelValues(s.labels...) })
}

// countSent counts a message sent when err is nil, and passes err on.
func (s *series) countSent(err error) error {
	if err == nil {
		s.sentCounter().Inc()
	}
	return err
}

// countReceived counts a message received when err is nil, and passes err
// on.
func (s *series) countReceived(err error) error {
	if err == nil {
		s.receivedCounter().Inc()
	}
	return err
}

func (s *series) handledCounter(code codes.Code) prometheus.Counter {
	resolve := func() prometheus.Counter {
		return s.vec.handled.WithLabelValues(s.labels[0], s.labels[1], s.labels[2], code.String())
	}
	if int(code) >= len(s.handled) {
		return resolve()
	}
	return s.handled[code].get(resolve)
}

func (s *series) durationObserver() prometheus.Observer {
	return s.duration.get(func() prometheus.Observer { return s.vec.duration.WithLabelValues(s.labels...) })
}

type methodKey struct{ typ, fullMethod string }

// of returns a method's series, made on its first call. The methods are
// the ones the server serves (gRPC runs no interceptor for any other) or
// the ones the client calls, so the map stays as small as the API.
func (v *vectors) of(typ, fullMethod string) *series {
	key := methodKey{typ, fullMethod}
	if s, ok := v.methods.Load(key); ok {
		return s.(*series)
	}
	service, method := splitMethod(fullMethod)
	s, _ := v.methods.LoadOrStore(key, &series{vec: v, labels: []string{typ, service, method}})
	return s.(*series)
}

// splitMethod splits "/package.Service/Method" as the provider does.
func splitMethod(fullMethod string) (service, method string) {
	fullMethod = strings.TrimPrefix(fullMethod, "/")
	if i := strings.Index(fullMethod, "/"); i >= 0 {
		return fullMethod[:i], fullMethod[i+1:]
	}
	return "unknown", "unknown"
}
