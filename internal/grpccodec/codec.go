// Package grpccodec is the protobuf codec on the gRPC link between the tiers.
// The platform's messages carry generated marshal and unmarshal code
// (vtprotobuf, generated beside them in gen/), which runs without protobuf
// reflection; every other message (health checks, server reflection) goes
// through protobuf-go as usual. The bytes on the wire are protobuf either
// way, so the codec keeps the name "proto" and any gRPC client or server
// interoperates with it.
package grpccodec

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	protocodec "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
)

// generated is what vtprotobuf generates for a message.
type generated interface {
	proto.Message
	SizeVT() int
	MarshalToSizedBufferVT(dAtA []byte) (int, error)
	UnmarshalVT(dAtA []byte) error
}

// Raw is a message taken as its encoding: the codec copies the bytes of an
// answer received into a *Raw instead of decoding them. The gateway receives the answers it only renders as
// Raw and renders them from the wire (wirejson.AppendFieldsWire).
type Raw struct {
	Bytes []byte
}

// Codec implements encoding.CodecV2. Use it with grpc.ForceServerCodecV2
// and grpc.ForceCodecV2.
type Codec struct {
	fallback encoding.CodecV2
}

// New returns the codec.
func New() Codec {
	return Codec{fallback: encoding.GetCodecV2(protocodec.Name)}
}

// Name is protobuf's: the codec changes how messages are encoded in memory,
// not what travels.
func (Codec) Name() string { return protocodec.Name }

// Marshal encodes v, in a buffer from gRPC's pool when it is large enough
// for pooling to pay, as gRPC's own codec does.
func (c Codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(generated)
	if !ok {
		return c.fallback.Marshal(v)
	}
	size := m.SizeVT()
	if mem.IsBelowBufferPoolingThreshold(size) {
		buf := make([]byte, size)
		if _, err := m.MarshalToSizedBufferVT(buf); err != nil {
			return nil, fmt.Errorf("grpccodec: marshal %T: %w", v, err)
		}
		return mem.BufferSlice{mem.SliceBuffer(buf)}, nil
	}
	pool := mem.DefaultBufferPool()
	buf := pool.Get(size)
	if _, err := m.MarshalToSizedBufferVT(*buf); err != nil {
		pool.Put(buf)
		return nil, fmt.Errorf("grpccodec: marshal %T: %w", v, err)
	}
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

// Unmarshal decodes data into v, replacing what v held (generated
// UnmarshalVT merges, proto.Unmarshal replaces; the codec keeps the
// latter's contract).
func (c Codec) Unmarshal(data mem.BufferSlice, v any) error {
	if r, ok := v.(*Raw); ok {
		r.Bytes = r.Bytes[:0]
		for _, buf := range data {
			r.Bytes = append(r.Bytes, buf.ReadOnlyData()...)
		}
		return nil
	}
	m, ok := v.(generated)
	if !ok {
		return c.fallback.Unmarshal(data, v)
	}
	proto.Reset(m)
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return m.UnmarshalVT(buf.ReadOnlyData())
}
