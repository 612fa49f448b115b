package core

import (
	"context"
	"testing"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/tap"
)

// The call record is the tap's when the transport ran it, and made from the
// incoming metadata once when it did not (grpc.Server's ServeHTTP).
func TestCallRecordWithAndWithoutTap(t *testing.T) {
	md := metadata.Pairs("x-request-id", "req_1")

	tapped, err := tapCall(context.Background(), &tap.Info{FullMethodName: "/m.S/M", Header: md})
	if err != nil {
		t.Fatal(err)
	}
	ctx, c := tappedCall(tapped)
	if ctx != tapped || callOf(ctx) != c || c.md["x-request-id"][0] != "req_1" {
		t.Fatalf("with the tap: a record other than the tap's (%+v)", c)
	}

	untapped := metadata.NewIncomingContext(context.Background(), md)
	ctx, c = tappedCall(untapped)
	if ctx == untapped || callOf(ctx) != c || c.md["x-request-id"][0] != "req_1" {
		t.Fatalf("without the tap: no record made from the metadata (%+v)", c)
	}
	if again, c2 := tappedCall(ctx); again != ctx || c2 != c {
		t.Fatal("without the tap: the record is made again instead of kept")
	}
}
