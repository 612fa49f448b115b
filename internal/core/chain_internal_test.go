package core

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"
)

// The chain runs its interceptors in order around the handler, and an
// interceptor that calls next twice runs the rest of the chain twice.
func TestChainUnaryOrderAndRepeatedNext(t *testing.T) {
	var trace []string
	mark := func(name string, times int) grpc.UnaryServerInterceptor {
		return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			trace = append(trace, name+">")
			var resp any
			var err error
			for range times {
				resp, err = next(ctx, req)
			}
			trace = append(trace, "<"+name)
			return resp, err
		}
	}
	chain := chainUnary([]grpc.UnaryServerInterceptor{mark("a", 1), mark("b", 2), mark("c", 1)})
	resp, err := chain(context.Background(), "req", &grpc.UnaryServerInfo{}, func(_ context.Context, req any) (any, error) {
		trace = append(trace, "handler")
		return req.(string) + "-done", nil
	})
	if err != nil || resp != "req-done" {
		t.Fatalf("resp %v, err %v", resp, err)
	}
	want := "a> b> c> handler <c c> handler <c <b <a"
	if got := strings.Join(trace, " "); got != want {
		t.Errorf("trace\n got %s\nwant %s", got, want)
	}
}
