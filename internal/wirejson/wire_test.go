package wirejson_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/cancellations/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/consent/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/payouts/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/returns/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/sellers/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	_ "github.com/mallplatform/partnerapi/gen/mp/webhooks/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// vtMessage is a message with generated marshalling, as every message on
// the link between the tiers has: decoding with it is what the gateway did
// before rendering from the wire.
type vtMessage interface {
	proto.Message
	MarshalVT() ([]byte, error)
	UnmarshalVT([]byte) error
}

// renderDecoded is the reference: decode with the generated code, render
// the message.
func renderDecoded(t *testing.T, mt protoreflect.MessageType, wire []byte) ([]byte, bool) {
	t.Helper()
	m := mt.New().Interface().(vtMessage)
	if err := m.UnmarshalVT(wire); err != nil {
		return nil, false
	}
	b, _, err := wirejson.AppendFields([]byte("x"), m)
	if err != nil {
		return nil, false
	}
	return b, true
}

// TestWireRenderingMatchesDecoded holds the walk to the message renderer on
// every renderable message type of the platform: random messages encoded
// by their generated code, and the same encodings rewritten as other
// encoders may write them (fields in reverse order, a singular scalar sent
// twice, explicit zeros, repeated scalars packed or not, unknown fields).
func TestWireRenderingMatchesDecoded(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	types := 0
	protoregistry.GlobalTypes.RangeMessages(func(mt protoreflect.MessageType) bool {
		md := mt.Descriptor()
		if !strings.HasPrefix(string(md.FullName()), "mp.") || !wirejson.WireRenderable(md) {
			return true
		}
		if _, ok := mt.New().Interface().(vtMessage); !ok {
			return true
		}
		types++
		for i := range 40 {
			m := mt.New()
			fill(rng, m, 0)
			wire, err := m.Interface().(vtMessage).MarshalVT()
			if err != nil {
				// A field of a type without generated code (httpbody's)
				// holds invalid UTF-8, which protobuf-go refuses.
				continue
			}
			encodings := [][]byte{wire, rewrite(rng, md, wire)}
			for j, enc := range encodings {
				want, wantOK := renderDecoded(t, mt, enc)
				got, _, ok := wirejson.AppendFieldsWire([]byte("x"), md, enc)
				if j == 0 && !ok {
					t.Fatalf("%s #%d: the walk declined its generated encoding", md.FullName(), i)
				}
				if !ok {
					continue // declined: the gateway decodes it instead
				}
				if !wantOK {
					t.Fatalf("%s #%d/%d: rendered from the wire an encoding that does not decode:\n%s", md.FullName(), i, j, got)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s #%d/%d:\n wire %s\n msg  %s", md.FullName(), i, j, got, want)
				}
			}
		}
		return true
	})
	if types < 50 {
		t.Fatalf("only %d message types renderable from the wire", types)
	}
}

func TestWireRenderingDeclines(t *testing.T) {
	md := (&ordersv1.OrderResponse{}).ProtoReflect().Descriptor()
	order := protowire.AppendTag(nil, 1, protowire.BytesType)
	order = protowire.AppendBytes(order, protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), "ord_1"))
	cases := map[string][]byte{
		// Decoding merges the two: the walk leaves it to decoding.
		"message sent twice": append(append([]byte{}, order...), order...),
		"wrong wire type":    protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), 7),
		"truncated":          order[:len(order)-1],
	}
	for name, wire := range cases {
		if _, _, ok := wirejson.AppendFieldsWire(nil, md, wire); ok {
			t.Errorf("%s: rendered", name)
		}
	}
	// A list that travels as a bare JSON array (json_array) is held to the
	// same rules: a string item sent as a fixed32 whose four bytes would read
	// as two length-prefixed strings ("a", "b") is not a string.
	scopes := protowire.AppendFixed32(protowire.AppendTag(nil, 1, protowire.Fixed32Type), 0x62016101)
	consent := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), scopes)
	if out, _, ok := wirejson.AppendFieldsWire(nil, (&authv1.ConsentRequest{}).ProtoReflect().Descriptor(), consent); ok {
		t.Errorf("json_array item of the wrong wire type: rendered %s", out)
	}
}

// fill sets every field of m to a random value, or leaves it unset.
func fill(rng *rand.Rand, m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if rng.IntN(4) == 0 {
			continue
		}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() && m.WhichOneof(od) != nil {
			continue
		}
		switch {
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			for range rng.IntN(3) {
				k := randomValue(rng, fd.MapKey(), depth)
				if fd.MapValue().Kind() == protoreflect.MessageKind {
					v := mp.NewValue()
					fill(rng, v.Message(), depth+1)
					mp.Set(k.MapKey(), v)
				} else {
					mp.Set(k.MapKey(), randomValue(rng, fd.MapValue(), depth))
				}
			}
		case fd.IsList():
			l := m.Mutable(fd).List()
			for range rng.IntN(4) {
				if fd.Kind() == protoreflect.MessageKind {
					if depth > 3 {
						break
					}
					v := l.NewElement()
					fill(rng, v.Message(), depth+1)
					l.Append(v)
				} else {
					l.Append(randomValue(rng, fd, depth))
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			if depth > 3 {
				continue
			}
			fill(rng, m.Mutable(fd).Message(), depth+1)
		default:
			m.Set(fd, randomValue(rng, fd, depth))
		}
	}
}

var texts = []string{"", "a", "ord_06gjg2etyjc8awks98ctbmc2wc", "Quote \" backslash \\ <b>&amp;", "tab\t nl\n ctrl\x01",
	"ls\u2028 ps\u2029 ñ 日本 😀", "bad \xff utf-8", "\\u0041"}

func randomValue(rng *rand.Rand, fd protoreflect.FieldDescriptor, _ int) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(rng.IntN(2) == 0)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32([]int32{0, 1, -1, 2147483647, -2147483648, int32(rng.Uint32())}[rng.IntN(6)])
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64([]int64{0, 1, -1, 9999999999, -9223372036854775808, int64(rng.Uint64())}[rng.IntN(6)])
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32([]uint32{0, 1, 4294967295, rng.Uint32()}[rng.IntN(4)])
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64([]uint64{0, 1, 18446744073709551615, rng.Uint64()}[rng.IntN(4)])
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32([]float32{0, 1.5, -2.25, 1e-7, 3e22}[rng.IntN(5)])
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64([]float64{0, 20.5, -1, 1e-7, 1e21, 123456.789}[rng.IntN(6)])
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(texts[rng.IntN(len(texts))])
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte(texts[rng.IntN(len(texts))]))
	case protoreflect.EnumKind:
		values := fd.Enum().Values()
		if rng.IntN(8) == 0 {
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(99)) // unknown to the schema
		}
		return protoreflect.ValueOfEnum(values.Get(rng.IntN(values.Len())).Number())
	}
	panic("kind " + fd.Kind().String())
}

// rewrite re-encodes a message's top-level fields as another encoder
// might: in reverse order, with a singular scalar sent twice (an earlier
// value first, which the later one replaces), explicit zeros of implicit
// scalars, repeated scalars unpacked, and an unknown field.
func rewrite(rng *rand.Rand, md protoreflect.MessageDescriptor, wire []byte) []byte {
	type field struct {
		num protowire.Number
		typ protowire.Type
		raw []byte // tag and value
		val []byte // value
	}
	var fields []field
	for off := 0; off < len(wire); {
		num, typ, n := protowire.ConsumeTag(wire[off:])
		vn := protowire.ConsumeFieldValue(num, typ, wire[off+n:])
		fields = append(fields, field{num, typ, wire[off : off+n+vn], wire[off+n : off+n+vn]})
		off += n + vn
	}
	var out []byte
	out = protowire.AppendTag(out, 900, protowire.BytesType)
	out = protowire.AppendString(out, "unknown")
	for i := len(fields) - 1; i >= 0; i-- {
		f := fields[i]
		fd := md.Fields().ByNumber(f.num)
		switch {
		case fd != nil && fd.IsList() && f.typ == protowire.BytesType && fd.Kind() != protoreflect.StringKind &&
			fd.Kind() != protoreflect.BytesKind && fd.Kind() != protoreflect.MessageKind:
			// Packed: write each value with its own tag.
			payload, _ := protowire.ConsumeBytes(f.val)
			typ := protowire.VarintType
			switch fd.Kind() {
			case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
				typ = protowire.Fixed32Type
			case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
				typ = protowire.Fixed64Type
			}
			for len(payload) > 0 {
				vn := protowire.ConsumeFieldValue(f.num, typ, payload)
				out = protowire.AppendTag(out, f.num, typ)
				out = append(out, payload[:vn]...)
				payload = payload[vn:]
			}
		case fd != nil && !fd.IsList() && f.typ == protowire.VarintType && rng.IntN(2) == 0:
			// An earlier value the later one replaces.
			out = protowire.AppendTag(out, f.num, protowire.VarintType)
			out = protowire.AppendVarint(out, 12345)
			out = append(out, f.raw...)
		default:
			out = append(out, f.raw...)
		}
	}
	// Explicit zeros of implicit scalars that were not sent.
	fieldsOf := md.Fields()
	for i := 0; i < fieldsOf.Len(); i++ {
		fd := fieldsOf.Get(i)
		if fd.HasPresence() || fd.IsList() || fd.IsMap() || fd.Kind() == protoreflect.MessageKind {
			continue
		}
		switch fd.Kind() {
		case protoreflect.StringKind, protoreflect.BytesKind:
			out = protowire.AppendTag(out, fd.Number(), protowire.BytesType)
			out = protowire.AppendBytes(out, nil)
		case protoreflect.FloatKind, protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
			out = protowire.AppendTag(out, fd.Number(), protowire.Fixed32Type)
			out = protowire.AppendFixed32(out, 0)
		case protoreflect.DoubleKind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
			out = protowire.AppendTag(out, fd.Number(), protowire.Fixed64Type)
			out = protowire.AppendFixed64(out, 0)
		default:
			out = protowire.AppendTag(out, fd.Number(), protowire.VarintType)
			out = protowire.AppendVarint(out, 0)
		}
	}
	return out
}
