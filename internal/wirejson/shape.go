package wirejson

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Written says when the encoder writes a field: the same plan Marshal
// follows, exposed so that a description of the wire (the OpenAPI document)
// is derived from the codec instead of restating its rules.
type Written int

const (
	// WrittenAlways: plain scalars (zero included) and lists or maps
	// ([] or {} when empty).
	WrittenAlways Written = iota
	// WrittenNullWhenUnset: an unset field with PRESENCE_NULL is JSON null.
	WrittenNullWhenUnset
	// WrittenOmittedWhenUnset: an unset field that tracks presence
	// (optional scalars, messages) is left out.
	WrittenOmittedWhenUnset
	// WrittenOmittedWhenEmpty: a list or map with PRESENCE_OMIT_EMPTY is
	// left out when empty.
	WrittenOmittedWhenEmpty
)

// FieldShape is one field as it travels.
type FieldShape struct {
	// Name is the field's wire name (its json_name).
	Name    string
	Desc    protoreflect.FieldDescriptor
	Written Written
	// ObjectEntries: a list of {key, value} messages that travels as one
	// JSON object of strings.
	ObjectEntries bool
	// RawJSON: a bytes field written as the JSON object it holds (answers
	// only); repeated, an array of them.
	RawJSON bool
	// RawJSONMessage names the message a RawJSON field holds the wire JSON
	// of ("" when the field does not say: an event's data).
	RawJSONMessage protoreflect.FullName
}

// MessageShape is a message as it travels.
type MessageShape struct {
	// WellKnown names a well-known type that travels in its own JSON form
	// (google.protobuf.Timestamp as an ISO-8601 string in UTC, Value as any
	// JSON value, Struct as an object, ListValue as an array); "" otherwise.
	WellKnown protoreflect.FullName
	// JSONArray is set when the message travels as the JSON array of its
	// one repeated field (mp.options.v1.json_array).
	JSONArray *FieldShape
	Fields    []FieldShape
}

// Shape describes how messages of md are written and read.
func Shape(md protoreflect.MessageDescriptor) MessageShape {
	p := planFor(md)
	out := MessageShape{}
	if p.wellKnown != wkNone {
		out.WellKnown = md.FullName()
		return out
	}
	for _, fp := range p.fields {
		fs := fieldShape(fp)
		if p.jsonArray == fp {
			out.JSONArray = &fs
		}
		out.Fields = append(out.Fields, fs)
	}
	return out
}

func fieldShape(fp *fieldPlan) FieldShape {
	fs := FieldShape{Name: fp.name, Desc: fp.fd, ObjectEntries: fp.objectEntries, RawJSON: fp.rawJSON,
		RawJSONMessage: fp.rawJSONMessage}
	switch {
	case fp.fd.IsList() || fp.fd.IsMap():
		if fp.presence == presenceOmitEmpty {
			fs.Written = WrittenOmittedWhenEmpty
		}
	case fp.tracksPresence && fp.presence == presenceNull:
		fs.Written = WrittenNullWhenUnset
	case fp.tracksPresence:
		fs.Written = WrittenOmittedWhenUnset
	}
	return fs
}

// EnumWireNames lists the wire spellings of ed's values in declaration
// order; values without one (UNSPECIFIED, internal values) never travel.
// With an enum field whose protovalidate `in` rule narrows the values, only
// those are listed (see EnumChoices).
func EnumWireNames(fd protoreflect.FieldDescriptor) []string {
	plan := enumPlanFor(fd.Enum())
	in := enumRule(fd).GetIn()
	values := fd.Enum().Values()
	var out []string
	for i := 0; i < values.Len(); i++ {
		v := values.Get(i)
		wire, ok := plan.toWire[v.Number()]
		if !ok {
			continue
		}
		if len(in) > 0 && !containsNumber(in, int32(v.Number())) {
			continue
		}
		out = append(out, wire)
	}
	return out
}

func containsNumber(in []int32, n int32) bool {
	for _, v := range in {
		if v == n {
			return true
		}
	}
	return false
}
