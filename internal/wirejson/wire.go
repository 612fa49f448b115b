package wirejson

import (
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Rendering straight from protobuf's wire format: the gateway receives
// core's answer as bytes and writes its JSON without building the message
// first. The output is the same bytes AppendFields writes for the decoded
// message (the tests hold every renderable message type of the platform to
// that); a message whose encoding the walk does not take as it is (a
// singular message field sent twice, which decoding would merge, a wire type
// its field does not have, a float JSON cannot hold) is declined, and the
// caller decodes and renders it as before.

// maxWireFields bounds the fields of a message rendered from the wire: the
// walk keeps one entry a field on the stack.
const maxWireFields = 64

// maxWireNumber bounds the field numbers of such a message, which index a
// table.
const maxWireNumber = 512

// wirePlan is how a message type is rendered from the wire.
type wirePlan struct {
	once sync.Once
	ok   bool // the message's own fields can be read from the wire
	// field maps a field number to the index of its plan in fields (-1:
	// not rendered, as an entity tag or a session cookie, or no such field).
	field []int16
	// all caches wireOK: 0 not yet known, 1 renderable, 2 not.
	all atomic.Int32
}

// WireRenderable reports whether AppendFieldsWire renders messages of md.
func WireRenderable(md protoreflect.MessageDescriptor) bool {
	return planFor(md).wireRenderable()
}

// wireRenderable: a message of p's type, not a well-known type (which
// travels as a JSON value of its own, not as fields), whose fields can all
// be read from the wire.
func (p *messagePlan) wireRenderable() bool {
	return p.wellKnown == wkNone && p.wireOK()
}

// wireOK reports whether p's messages, and every message they hold, can be
// rendered from the wire. Found once; two goroutines finding it at once
// find the same.
func (p *messagePlan) wireOK() bool {
	switch p.wire.all.Load() {
	case 1:
		return true
	case 2:
		return false
	}
	ok := p.wireOKFrom(map[protoreflect.FullName]bool{p.md.FullName(): true})
	if ok {
		p.wire.all.Store(1)
	} else {
		p.wire.all.Store(2)
	}
	return ok
}

// wireOKFrom walks the message types p holds; seen breaks cycles.
func (p *messagePlan) wireOKFrom(seen map[protoreflect.FullName]bool) bool {
	p.wire.once.Do(func() { p.wire.ok, p.wire.field = p.buildWire() })
	if !p.wire.ok {
		return false
	}
	for _, fp := range p.fields {
		if fp.kind != protoreflect.MessageKind {
			continue
		}
		name := fp.fd.Message().FullName()
		if seen[name] {
			continue
		}
		seen[name] = true
		if !fp.message().wireOKFrom(seen) {
			return false
		}
	}
	return true
}

func (p *messagePlan) buildWire() (bool, []int16) {
	switch p.wellKnown {
	case wkValue, wkStruct, wkListValue:
		return false, nil
	case wkTimestamp:
		return true, nil
	}
	if len(p.fields) > maxWireFields {
		return false, nil
	}
	fields := p.md.Fields()
	for i := 0; i < fields.Len(); i++ {
		if fields.Get(i).Number() > maxWireNumber {
			return false, nil
		}
	}
	table := make([]int16, maxWireNumber+1)
	for i := range table {
		table[i] = -1
	}
	for i, fp := range p.fields {
		fd := fp.fd
		if fd.IsMap() || fp.objectEntries || fp.kind == protoreflect.GroupKind {
			return false, nil
		}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			return false, nil // a member sent after another clears it
		}
		table[fd.Number()] = int16(i)
	}
	return true, table
}

// wireType is the wire type a field's values have (a repeated scalar's may
// also come packed).
func wireType(k protoreflect.Kind) protowire.Type {
	switch k {
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return protowire.Fixed32Type
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return protowire.Fixed64Type
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		return protowire.BytesType
	}
	return protowire.VarintType
}

// AppendFieldsWire appends the fields of the message of type md encoded in
// wire, as AppendFields does for the decoded message. ok is false when the
// walk declines the encoding; b then holds partial output past its original
// length, which the caller drops.
func AppendFieldsWire(b []byte, md protoreflect.MessageDescriptor, wire []byte) (out []byte, wroteAny, ok bool) {
	p := planFor(md)
	if !p.wireRenderable() {
		return b, false, false
	}
	return appendWireFields(b, p, wire, false)
}

// occurrence is where a field's values are in a message's encoding, as
// offsets (the walk zeroes one a field for every message it renders).
type occurrence struct {
	n int32 // occurrences seen
	// first is the offset of the field's first tag (lists); from and to
	// bound the last value's bytes (singular fields: the last one wins, as
	// in decoding; a length-delimited value without its length).
	first, from, to int32
}

// value is the last value's bytes (nil when the field was not sent).
func (o *occurrence) value(wire []byte) []byte {
	if o.n == 0 {
		return nil
	}
	return wire[o.from:o.to]
}

// scanWireFields records in occ where each of p's fields is in wire, one
// entry a field in p.fields' order; false when the walk declines the
// encoding (a malformed tag or value, a wire type its field does not have,
// a singular message sent twice).
func scanWireFields(p *messagePlan, wire []byte, occ *[maxWireFields]occurrence) bool {
	for off := 0; off < len(wire); {
		num, wt, n := protowire.ConsumeTag(wire[off:])
		if n < 0 {
			return false
		}
		start := off
		off += n
		vn := protowire.ConsumeFieldValue(num, wt, wire[off:])
		if vn < 0 {
			return false
		}
		value := wire[off : off+vn]
		off += vn
		if int(num) >= len(p.wire.field) || p.wire.field[num] < 0 {
			continue // unknown, or not rendered
		}
		i := p.wire.field[num]
		fp := p.fields[i]
		want := wireType(fp.kind)
		o := &occ[i]
		if fp.fd.IsList() {
			packed := wt == protowire.BytesType && want != protowire.BytesType
			if wt != want && !packed {
				return false
			}
			if o.n == 0 {
				o.first = int32(start)
			}
			o.n++
			continue
		}
		if wt != want || (fp.kind == protoreflect.MessageKind && o.n > 0) {
			return false // a second message would be merged into the first
		}
		from := off - vn
		if wt == protowire.BytesType {
			_, ln := protowire.ConsumeVarint(value)
			from += ln
		}
		o.n++
		o.from, o.to = int32(from), int32(off)
	}
	return true
}

func appendWireFields(b []byte, p *messagePlan, wire []byte, wroteAny bool) ([]byte, bool, bool) {
	var occ [maxWireFields]occurrence
	if !scanWireFields(p, wire, &occ) {
		return b, false, false
	}
	var ok bool
	for i, fp := range p.fields {
		o := &occ[i]
		switch {
		case fp.fd.IsList():
			mark, marked := len(b), wroteAny
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			var items int
			if b, items, ok = appendWireList(b, fp, wire, o); !ok {
				return b, false, false
			}
			if items == 0 && fp.presence == presenceOmitEmpty {
				b, wroteAny = b[:mark], marked
			}
		case fp.rawJSON:
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			b = appendRaw(b, o.value(wire))
		default:
			if fp.tracksPresence && o.n == 0 {
				b = appendAbsent(b, fp, &wroteAny)
				continue
			}
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			if b, ok = appendWireValue(b, fp, o.value(wire)); !ok {
				return b, false, false
			}
		}
	}
	return b, wroteAny, true
}

// appendWireList writes a list field's values as a JSON array, reading its
// occurrences from the first on.
func appendWireList(b []byte, fp *fieldPlan, wire []byte, o *occurrence) ([]byte, int, bool) {
	b = append(b, '[')
	items := 0
	item := func(value []byte) bool {
		if items > 0 {
			b = append(b, ',')
		}
		items++
		var ok bool
		if fp.rawJSON {
			b = appendRaw(b, value)
			return true
		}
		b, ok = appendWireValue(b, fp, value)
		return ok
	}
	want := wireType(fp.kind)
	for off, seen := int(o.first), int32(0); seen < o.n && off < len(wire); {
		num, wt, n := protowire.ConsumeTag(wire[off:])
		off += n
		vn := protowire.ConsumeFieldValue(num, wt, wire[off:])
		value := wire[off : off+vn]
		off += vn
		if num != fp.fd.Number() {
			continue
		}
		seen++
		if wt == protowire.BytesType {
			value, _ = protowire.ConsumeBytes(value)
		}
		if wt == want {
			if !item(value) {
				return b, 0, false
			}
			continue
		}
		// Packed scalars: one value after another.
		for len(value) > 0 {
			vn := protowire.ConsumeFieldValue(0, want, value)
			if vn < 0 {
				return b, 0, false
			}
			if !item(value[:vn]) {
				return b, 0, false
			}
			value = value[vn:]
		}
	}
	return append(b, ']'), items, true
}

// appendWireValue writes one value of fp's kind from its encoding: a
// varint's or a fixed value's bytes, or a length-delimited payload; nil is
// the field's zero value. Messages are walked; every other kind is read
// into a protoreflect.Value and written by appendSingular, the message
// renderer's own formatting.
func appendWireValue(b []byte, fp *fieldPlan, value []byte) ([]byte, bool) {
	if fp.kind == protoreflect.MessageKind {
		return appendWireMessage(b, fp.message(), value)
	}
	v, ok := wireScalar(fp.kind, value)
	if !ok {
		return b, false
	}
	out, err := appendSingular(b, fp, v)
	return out, err == nil
}

// wireScalar reads a scalar of kind k from its encoding (nil: zero), as
// the generated decoders do.
func wireScalar(k protoreflect.Kind, value []byte) (protoreflect.Value, bool) {
	switch k {
	case protoreflect.StringKind:
		// The string views the wire's bytes: it lives only while the
		// value is written.
		return protoreflect.ValueOfString(unsafe.String(unsafe.SliceData(value), len(value))), true
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes(value), true
	}
	var v uint64
	if len(value) > 0 {
		var n int
		switch wireType(k) {
		case protowire.Fixed32Type:
			var v32 uint32
			v32, n = protowire.ConsumeFixed32(value)
			v = uint64(v32)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(value)
		default:
			v, n = protowire.ConsumeVarint(value)
		}
		if n < 0 {
			return protoreflect.Value{}, false
		}
	}
	switch k {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(v != 0), true
	case protoreflect.Int32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(v)), true
	case protoreflect.Int64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(v)), true
	case protoreflect.Sint32Kind:
		return protoreflect.ValueOfInt32(int32(protowire.DecodeZigZag(v & math.MaxUint32))), true
	case protoreflect.Sint64Kind:
		return protoreflect.ValueOfInt64(protowire.DecodeZigZag(v)), true
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(v)), true
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(v), true
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(math.Float32frombits(uint32(v))), true
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(math.Float64frombits(v)), true
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(int32(v))), true
	}
	return protoreflect.Value{}, false
}

// appendWireMessage writes a message value from its encoding.
func appendWireMessage(b []byte, p *messagePlan, wire []byte) ([]byte, bool) {
	if p.wellKnown == wkTimestamp {
		return appendWireTimestamp(b, wire)
	}
	if p.jsonArray != nil { // its one field, p.fields[0], is the list
		var occ [maxWireFields]occurrence
		if !scanWireFields(p, wire, &occ) {
			return b, false
		}
		b, _, ok := appendWireList(b, p.jsonArray, wire, &occ[0])
		return b, ok
	}
	b = append(b, '{')
	b, _, ok := appendWireFields(b, p, wire, false)
	if !ok {
		return b, false
	}
	return append(b, '}'), true
}

// appendWireTimestamp writes a google.protobuf.Timestamp from its encoding
// (seconds 1, nanos 2; the last of each wins).
func appendWireTimestamp(b []byte, wire []byte) ([]byte, bool) {
	var secs, nanos int64
	for off := 0; off < len(wire); {
		num, wt, n := protowire.ConsumeTag(wire[off:])
		if n < 0 {
			return b, false
		}
		off += n
		if wt != protowire.VarintType {
			vn := protowire.ConsumeFieldValue(num, wt, wire[off:])
			if vn < 0 || num == 1 || num == 2 {
				return b, false
			}
			off += vn
			continue
		}
		v, vn := protowire.ConsumeVarint(wire[off:])
		if vn < 0 {
			return b, false
		}
		off += vn
		switch num {
		case 1:
			secs = int64(v)
		case 2:
			nanos = int64(int32(v))
		}
	}
	return appendInstant(b, secs, nanos), true
}
