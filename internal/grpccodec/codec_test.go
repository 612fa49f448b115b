package grpccodec_test

import (
	"testing"

	"google.golang.org/grpc/encoding"
	protocodec "google.golang.org/grpc/encoding/proto"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/grpccodec"
)

func order(items int) *ordersv1.OrderResponse {
	o := &ordersv1.Order{Id: "ord_1", Total: 123_456, CreatedAt: timestamppb.New(timestamppb.Now().AsTime())}
	for i := 0; i < items; i++ {
		o.Items = append(o.Items, &ordersv1.OrderItem{Id: "itm", Title: "Ube halaya ñ", Quantity: int64(i + 1), UnitPrice: 9_999})
	}
	return &ordersv1.OrderResponse{Data: o}
}

// The bytes are protobuf's: what the codec writes, protobuf-go reads, and
// the other way round, for messages small and large enough to be pooled.
func TestInteroperatesWithProtobufGo(t *testing.T) {
	c := grpccodec.New()
	for _, n := range []int{0, 3, 2000} {
		in := order(n)
		data, err := c.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		got := &ordersv1.OrderResponse{}
		if err := proto.Unmarshal(data.Materialize(), got); err != nil || !proto.Equal(in, got) {
			t.Fatalf("%d items: protobuf-go read back a different message (err %v)", n, err)
		}
		data.Free()

		wire, err := proto.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		got = &ordersv1.OrderResponse{}
		if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(wire)}, got); err != nil || !proto.Equal(in, got) {
			t.Fatalf("%d items: the codec read back a different message (err %v)", n, err)
		}
	}
}

// Unmarshal replaces the message's content, as proto.Unmarshal does; the
// generated code alone would merge into it.
func TestUnmarshalReplaces(t *testing.T) {
	c := grpccodec.New()
	data, err := c.Marshal(order(1))
	if err != nil {
		t.Fatal(err)
	}
	got := order(5)
	if err := c.Unmarshal(data, got); err != nil {
		t.Fatal(err)
	}
	if len(got.GetData().GetItems()) != 1 {
		t.Fatalf("items %d, want 1: unmarshal merged into the old content", len(got.GetData().GetItems()))
	}
}

// Messages without generated code (health checks, reflection) go through
// protobuf-go.
func TestFallsBackForOtherMessages(t *testing.T) {
	c := grpccodec.New()
	in := &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}
	data, err := c.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := &healthpb.HealthCheckResponse{}
	if err := c.Unmarshal(data, got); err != nil || !proto.Equal(in, got) {
		t.Fatalf("health response did not round-trip (err %v)", err)
	}
	if c.Name() != "proto" {
		t.Fatalf("name %q", c.Name())
	}
}

// Malformed input is an error, not a panic or a partial message.
func TestRejectsMalformedBytes(t *testing.T) {
	err := grpccodec.New().Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte{0x0a, 0xff})}, &ordersv1.OrderResponse{})
	if err == nil {
		t.Fatal("truncated message accepted")
	}
}

func BenchmarkCodec(b *testing.B) {
	in := order(3)
	for _, bc := range []struct {
		name  string
		codec interface {
			Marshal(any) (mem.BufferSlice, error)
			Unmarshal(mem.BufferSlice, any) error
		}
	}{{"generated", grpccodec.New()}, {"protobuf-go", encoding.GetCodecV2(protocodec.Name)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				data, err := bc.codec.Marshal(in)
				if err != nil {
					b.Fatal(err)
				}
				if err := bc.codec.Unmarshal(data, &ordersv1.OrderResponse{}); err != nil {
					b.Fatal(err)
				}
				data.Free()
			}
		})
	}
}

// A Raw answer is the encoding as it came, over several buffers too.
func TestRawIsTheEncoding(t *testing.T) {
	c := grpccodec.New()
	wire, err := proto.Marshal(order(3))
	if err != nil {
		t.Fatal(err)
	}
	half := len(wire) / 2
	raw := &grpccodec.Raw{Bytes: []byte("left over from an earlier answer")}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(wire[:half]), mem.SliceBuffer(wire[half:])}, raw); err != nil {
		t.Fatal(err)
	}
	if string(raw.Bytes) != string(wire) {
		t.Fatal("Raw does not hold the encoding")
	}
}
