package grpcmetrics_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	grpcprom "github.com/grpc-ecosystem/go-grpc-middleware/providers/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/internal/grpcmetrics"
)

var buckets = grpcmetrics.ClientBuckets

// Both ends' metrics match go-grpc-middleware's provider series for series
// (names, help, types, labels, buckets, values) for the same calls: unary and
// every kind of stream, succeeding, failing with a status, with a context
// error and with a plain error.
func TestSameSeriesAsTheProvider(t *testing.T) {
	ours, theirs := prometheus.NewRegistry(), prometheus.NewRegistry()

	server := grpcmetrics.NewServer()
	ours.MustRegister(server.Collectors()...)
	client := grpcmetrics.NewClient(buckets)
	ours.MustRegister(client.Collectors()...)
	playServer(server.Unary(), server.Stream())
	playClient(client.Unary(), client.Stream())

	providerServer := grpcprom.NewServerMetrics()
	theirs.MustRegister(providerServer)
	providerClient := grpcprom.NewClientMetrics(grpcprom.WithClientHandlingTimeHistogram(grpcprom.WithHistogramBuckets(buckets)))
	theirs.MustRegister(providerClient)
	playServer(providerServer.UnaryServerInterceptor(), providerServer.StreamServerInterceptor())
	playClient(providerClient.UnaryClientInterceptor(), providerClient.StreamClientInterceptor())

	got, want := exposition(t, ours), exposition(t, theirs)
	if got != want {
		t.Errorf("series differ from the provider's\nours:\n%s\nprovider's:\n%s", got, want)
	}
	if !bytes.Contains([]byte(want), []byte(`grpc_server_handled_total{grpc_code="NotFound",grpc_method="Get",grpc_service="test.v1.Things",grpc_type="unary"} 1`)) {
		t.Errorf("the calls were not counted:\n%s", want)
	}
}

// errorsOfEveryKind are the ends a call can have, each counted under its own
// grpc_code.
var errorsOfEveryKind = []error{
	nil,
	status.Error(codes.NotFound, "no such thing"),
	context.Canceled,
	context.DeadlineExceeded,
	errors.New("plain"),
	status.Error(codes.Code(42), "a code past the named ones"),
}

func playServer(unary grpc.UnaryServerInterceptor, stream grpc.StreamServerInterceptor) {
	ctx := context.Background()
	for _, end := range errorsOfEveryKind {
		info := &grpc.UnaryServerInfo{FullMethod: "/test.v1.Things/Get"}
		_, _ = unary(ctx, "req", info, func(context.Context, any) (any, error) { return "resp", end })
	}
	_, _ = unary(ctx, "req", &grpc.UnaryServerInfo{FullMethod: "malformed"}, func(context.Context, any) (any, error) { return "resp", nil })
	for _, kind := range []grpc.StreamServerInfo{
		{FullMethod: "/test.v1.Things/Watch", IsServerStream: true},
		{FullMethod: "/test.v1.Things/Upload", IsClientStream: true},
		{FullMethod: "/test.v1.Things/Chat", IsClientStream: true, IsServerStream: true},
	} {
		for _, end := range errorsOfEveryKind {
			ss := &fakeServerStream{ctx: ctx, recv: []error{nil, nil, io.EOF}, send: []error{nil, errors.New("broken"), nil}}
			_ = stream(nil, ss, &kind, func(_ any, ss grpc.ServerStream) error {
				for ss.RecvMsg(new(string)) == nil {
				}
				for range 3 {
					_ = ss.SendMsg("msg")
				}
				return end
			})
		}
	}
}

func playClient(unary grpc.UnaryClientInterceptor, stream grpc.StreamClientInterceptor) {
	ctx := context.Background()
	for _, end := range errorsOfEveryKind {
		_ = unary(ctx, "/test.v1.Things/Get", "req", new(string), nil, func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error {
			return end
		})
	}
	for _, desc := range []grpc.StreamDesc{
		{ServerStreams: true},
		{ClientStreams: true},
		{ClientStreams: true, ServerStreams: true},
	} {
		// A stream that cannot be opened.
		_, _ = stream(ctx, &desc, nil, "/test.v1.Things/Stream", func(context.Context, *grpc.StreamDesc, *grpc.ClientConn, string, ...grpc.CallOption) (grpc.ClientStream, error) {
			return nil, status.Error(codes.Unavailable, "down")
		})
		// Streams that end with io.EOF (OK) or with each error.
		for _, end := range append([]error{io.EOF}, errorsOfEveryKind[1:]...) {
			cs, _ := stream(ctx, &desc, nil, "/test.v1.Things/Stream", func(context.Context, *grpc.StreamDesc, *grpc.ClientConn, string, ...grpc.CallOption) (grpc.ClientStream, error) {
				return &fakeClientStream{send: []error{nil, io.EOF}, recv: []error{nil, nil, end}}, nil
			})
			for range 2 {
				_ = cs.SendMsg("msg")
			}
			for cs.RecvMsg(new(string)) == nil {
			}
		}
	}
}

// fakeServerStream answers RecvMsg and SendMsg from scripted results.
type fakeServerStream struct {
	grpc.ServerStream
	ctx        context.Context
	recv, send []error
}

func (s *fakeServerStream) Context() context.Context { return s.ctx }
func (s *fakeServerStream) RecvMsg(any) error        { return next(&s.recv) }
func (s *fakeServerStream) SendMsg(any) error        { return next(&s.send) }

type fakeClientStream struct {
	grpc.ClientStream
	recv, send []error
}

func (s *fakeClientStream) RecvMsg(any) error { return next(&s.recv) }
func (s *fakeClientStream) SendMsg(any) error { return next(&s.send) }

func next(script *[]error) error {
	if len(*script) == 0 {
		return io.EOF
	}
	err := (*script)[0]
	*script = (*script)[1:]
	return err
}

// exposition is reg's text exposition with each histogram reduced to what
// does not depend on time: its buckets' bounds and its sample count.
func exposition(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, f := range families {
		for _, m := range f.GetMetric() {
			if h := m.GetHistogram(); h != nil {
				h.SampleSum = new(float64)
				for _, b := range h.GetBucket() {
					b.CumulativeCount = new(uint64)
				}
				h.CreatedTimestamp = nil
			}
			if c := m.GetCounter(); c != nil {
				c.CreatedTimestamp = nil
			}
		}
		if _, err := expfmt.MetricFamilyToText(&buf, f); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

// Concurrent first calls of many methods each count every call once (the
// race detector in make test watches the kept methods' map and slots).
func TestConcurrentCallsCountOnce(t *testing.T) {
	reg := prometheus.NewRegistry()
	server := grpcmetrics.NewServer()
	reg.MustRegister(server.Collectors()...)
	unary := server.Unary()
	const methods, callers, calls = 8, 8, 50
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				info := &grpc.UnaryServerInfo{FullMethod: fmt.Sprintf("/test.v1.Things/M%d", (c+i)%methods)}
				_, _ = unary(context.Background(), "req", info, func(context.Context, any) (any, error) { return "resp", nil })
			}
		}()
	}
	wg.Wait()
	want := "# HELP grpc_server_handled_total Total number of RPCs completed on the server, regardless of success or failure.\n" +
		"# TYPE grpc_server_handled_total counter\n"
	for m := range methods {
		want += fmt.Sprintf("grpc_server_handled_total{grpc_code=\"OK\",grpc_method=\"M%d\",grpc_service=\"test.v1.Things\",grpc_type=\"unary\"} %d\n", m, callers*calls/methods)
	}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "grpc_server_handled_total"); err != nil {
		t.Error(err)
	}
}
