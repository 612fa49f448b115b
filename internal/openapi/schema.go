package openapi

import (
	"fmt"
	"regexp"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/mallplatform/partnerapi/gen/protocomments"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// direction tells which way a message travels: answers are described as
// the encoder writes them (which fields are always there, which are null,
// which are left out), requests as the decoder and protovalidate accept
// them (required fields, bounds, strict objects).
type direction int

const (
	output direction = iota
	input
)

// schemas builds the components/schemas section: one schema per message
// and direction, named after the message.
type schemas struct {
	section *node
	// names maps a component name to the message and direction it holds.
	names map[string]schemaKey
	byKey map[schemaKey]string
	errs  []string
}

type schemaKey struct {
	msg protoreflect.FullName
	dir direction
}

func newSchemas() *schemas {
	return &schemas{section: obj(), names: map[string]schemaKey{}, byKey: map[schemaKey]string{}}
}

func ref(name string) *node { return obj("$ref", "#/components/schemas/"+name) }

// message returns the schema of md travelling in dir: a reference to its
// component, or the inline form of a well-known type.
func (s *schemas) message(md protoreflect.MessageDescriptor, dir direction) *node {
	shape := wirejson.Shape(md)
	if shape.WellKnown != "" {
		return wellKnown(shape.WellKnown)
	}
	key := schemaKey{md.FullName(), dir}
	if name, ok := s.byKey[key]; ok {
		return ref(name)
	}
	name := string(md.Name())
	if other, taken := s.names[name]; taken && other != key {
		name += "Input"
		if other, taken := s.names[name]; taken && other != key {
			s.errs = append(s.errs, fmt.Sprintf("component name %s is taken by %s and %s", name, other.msg, md.FullName()))
		}
	}
	s.names[name], s.byKey[key] = key, name
	// Reserve the slot before recursing: messages may refer to each other.
	s.section.set(name, obj())
	s.section.set(name, s.object(md, shape, dir, nil))
	return ref(name)
}

func wellKnown(name protoreflect.FullName) *node {
	switch name {
	case "google.protobuf.Timestamp":
		return obj("type", "string", "format", "date-time",
			"description", "ISO-8601 date-time; answers give UTC with milliseconds, e.g. 2026-11-21T08:00:00.000Z.")
	case "google.protobuf.Struct":
		return obj("type", "object")
	case "google.protobuf.ListValue":
		return obj("type", "array")
	}
	return obj("description", "Any JSON value.")
}

// object is the schema of a message's JSON object; extra members (the
// envelope's success) come first.
func (s *schemas) object(md protoreflect.MessageDescriptor, shape wirejson.MessageShape, dir direction, extra *node) *node {
	if shape.JSONArray != nil {
		sch, _ := s.field(*shape.JSONArray, dir)
		return sch
	}
	props := obj()
	var required []string
	if extra != nil {
		for _, k := range extra.keys {
			props.set(k, extra.get(k))
			required = append(required, k)
		}
	}
	for _, f := range shape.Fields {
		sch, req := s.field(f, dir)
		props.set(f.Name, sch)
		if req {
			required = append(required, f.Name)
		}
	}
	o := obj("type", "object")
	desc := comment(md)
	if rules := celRules(md); dir == input && rules != "" {
		desc = joinText(desc, rules)
	}
	if desc != "" {
		o.set("description", desc)
	}
	o.set("properties", props)
	if len(required) > 0 {
		o.set("required", required)
	}
	// Answers carry exactly the fields of the plan; requests with an
	// unknown field are refused (VALIDATION_ERROR).
	o.set("additionalProperties", false)
	return o
}

// celRules lists a message's cross-field rules, which JSON Schema cannot
// express, for its description.
func celRules(md protoreflect.MessageDescriptor) string {
	rules, _ := proto.GetExtension(md.Options(), validate.E_Message).(*validate.MessageRules)
	var out []string
	for _, r := range rules.GetCel() {
		if m := r.GetMessage(); m != "" {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "Rules across fields: " + strings.Join(out, "; ") + "."
}

// field returns a field's schema, described by its comment, and whether
// the object requires it.
func (s *schemas) field(f wirejson.FieldShape, dir direction) (*node, bool) {
	sch, req := s.fieldSchema(f, dir)
	desc := joinText(comment(f.Desc), enumValues(f.Desc))
	if desc == "" {
		return sch, req
	}
	// A schema of its own gets the description; a shared one (a $ref,
	// possibly inside anyOf) gets it beside, as OpenAPI 3.1 allows.
	out := obj()
	for _, k := range sch.keys {
		out.set(k, sch.get(k))
	}
	if old, ok := out.get("description").(string); ok {
		desc = joinText(desc, old)
	}
	return out.set("description", desc), req
}

func (s *schemas) fieldSchema(f wirejson.FieldShape, dir direction) (*node, bool) {
	fd := f.Desc
	rules, _ := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
	var sch *node
	switch {
	case f.RawJSON && f.RawJSONMessage != "":
		// The wire JSON of a named message, rendered by core: described
		// as that message is.
		sch = s.renderedMessage(f)
	case f.RawJSON:
		// JSON the platform rendered itself (an event's resource view): an
		// object whose shape its field's description names.
		sch = obj("type", "object")
	case f.ObjectEntries:
		sch = s.entries(fd, rules, dir)
	case fd.IsList():
		sch = obj("type", "array", "items", s.value(fd, rules.GetRepeated().GetItems(), dir))
		if dir == input {
			applyRules(sch, rules.GetRepeated())
		}
	case fd.IsMap():
		sch = obj("type", "object", "additionalProperties", s.value(fd.MapValue(), nil, dir))
	default:
		sch = s.value(fd, rules, dir)
	}
	if dir == input {
		return sch, requiredInput(fd, rules)
	}
	switch f.Written {
	case wirejson.WrittenNullWhenUnset:
		return nullable(sch), true
	case wirejson.WrittenOmittedWhenEmpty:
		return sch, false
	case wirejson.WrittenOmittedWhenUnset:
		// An optional scalar is left out when unset. A message field
		// is set on every answer the services build (the conformance
		// test holds them to it) unless the proto declares it
		// `optional`: absent where it does not apply.
		return sch, fd.Kind() == protoreflect.MessageKind && !fd.HasOptionalKeyword()
	}
	return sch, true
}

// renderedMessage is the schema of a raw_json field that names the
// message it holds the rendering of (an answer only: such fields are never
// read from a request): that message's, or an array of them.
func (s *schemas) renderedMessage(f wirejson.FieldShape) *node {
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(f.RawJSONMessage)
	md, ok := d.(protoreflect.MessageDescriptor)
	if err != nil || !ok {
		s.errs = append(s.errs, fmt.Sprintf("%s: raw_json_message %q is not a known message", f.Desc.FullName(), f.RawJSONMessage))
		return obj("type", "object")
	}
	sch := s.message(md, output)
	if f.Desc.IsList() {
		return obj("type", "array", "items", sch)
	}
	return sch
}

// requiredInput: the field must be sent, or protovalidate refuses the
// request (an explicit required rule, a non-empty string or list rule on a
// field without presence).
func requiredInput(fd protoreflect.FieldDescriptor, rules *validate.FieldRules) bool {
	if rules.GetRequired() {
		return true
	}
	if fd.HasPresence() && !fd.IsList() {
		return false
	}
	return rules.GetString().GetMinLen() > 0 || rules.GetRepeated().GetMinItems() > 0
}

// value is the schema of one value of fd's kind (a field's, a list item's
// or a map value's), with its protovalidate rules on requests.
func (s *schemas) value(fd protoreflect.FieldDescriptor, rules *validate.FieldRules, dir direction) *node {
	var sch *node
	switch fd.Kind() {
	case protoreflect.BoolKind:
		sch = obj("type", "boolean")
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		sch = obj("type", "integer", "format", "int32")
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		// JSON integers, never strings: money is integer centavos.
		sch = obj("type", "integer", "format", "int64")
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		sch = obj("type", "integer", "minimum", 0)
	case protoreflect.FloatKind:
		sch = obj("type", "number", "format", "float")
	case protoreflect.DoubleKind:
		sch = obj("type", "number", "format", "double")
	case protoreflect.StringKind:
		sch = obj("type", "string")
	case protoreflect.BytesKind:
		sch = obj("type", "string", "contentEncoding", "base64")
	case protoreflect.EnumKind:
		// The wire names, narrowed by an `in` rule where there is one.
		return obj("type", "string", "enum", wirejson.EnumWireNames(fd))
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return s.message(fd.Message(), dir)
	}
	if dir == input {
		applyRules(sch, scalarRules(rules))
	}
	return sch
}

// entries is a list of {key, value} messages travelling as one object.
func (s *schemas) entries(fd protoreflect.FieldDescriptor, rules *validate.FieldRules, dir direction) *node {
	fields := fd.Message().Fields()
	keyRules, _ := proto.GetExtension(fields.Get(0).Options(), validate.E_Field).(*validate.FieldRules)
	valRules, _ := proto.GetExtension(fields.Get(1).Options(), validate.E_Field).(*validate.FieldRules)
	val := obj("type", "string")
	keys := obj("type", "string")
	if dir == input {
		applyRules(val, valRules.GetString())
		applyRules(keys, keyRules.GetString())
	}
	sch := obj("type", "object", "description", "Name to value, in the order sent; the order is kept.")
	if dir == input {
		sch.set("propertyNames", keys)
		if n := rules.GetRepeated().GetMaxItems(); n > 0 {
			sch.set("maxProperties", n)
		}
	}
	return sch.set("additionalProperties", val)
}

// scalarRules is the rules message of a scalar field's kind (Int64Rules,
// StringRules, ...), whichever is set.
func scalarRules(rules *validate.FieldRules) proto.Message {
	if rules == nil {
		return nil
	}
	var out proto.Message
	setFields(rules.ProtoReflect(), func(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		if fd.ContainingOneof() != nil && fd.ContainingOneof().Name() == "type" && fd.Kind() == protoreflect.MessageKind {
			out = v.Message().Interface()
		}
	})
	return out
}

// ruleKeywords maps protovalidate's rule fields onto JSON Schema keywords
// with the same meaning (lengths count characters in both).
var ruleKeywords = map[protoreflect.Name]string{
	"gt": "exclusiveMinimum", "gte": "minimum", "lt": "exclusiveMaximum", "lte": "maximum",
	"min_len": "minLength", "max_len": "maxLength",
	"min_items": "minItems", "max_items": "maxItems", "unique": "uniqueItems",
	"pattern": "pattern", "const": "const",
}

func applyRules(sch *node, rules proto.Message) {
	if rules == nil || sch == nil {
		return
	}
	setFields(rules.ProtoReflect(), func(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		name := fd.Name()
		if kw, ok := ruleKeywords[name]; ok {
			sch.set(kw, v.Interface())
			return
		}
		switch name {
		case "prefix":
			sch.set("pattern", "^"+regexp.QuoteMeta(v.String()))
		case "uri":
			if v.Bool() {
				sch.set("format", "uri")
			}
		case "email":
			if v.Bool() {
				sch.set("format", "email")
			}
		case "in":
			if sch.get("enum") == nil {
				var vals []any
				for i := 0; i < v.List().Len(); i++ {
					vals = append(vals, v.List().Get(i).Interface())
				}
				sch.set("enum", vals)
			}
		}
	})
}

// setFields calls fn for m's set fields in field-number order (Range's
// order is unspecified, and the document's bytes must not change).
func setFields(m protoreflect.Message, fn func(protoreflect.FieldDescriptor, protoreflect.Value)) {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		if fd := fields.Get(i); m.Has(fd) {
			fn(fd, m.Get(fd))
		}
	}
}

// nullable lets a schema also be JSON null.
func nullable(sch *node) *node {
	if _, isRef := sch.vals["$ref"]; isRef {
		return obj("anyOf", []any{sch, obj("type", "null")})
	}
	out := obj()
	for _, k := range sch.keys {
		v := sch.get(k)
		switch k {
		case "type":
			v = []any{v, "null"}
		case "enum":
			vals := []any{}
			for _, e := range v.([]string) {
				vals = append(vals, e)
			}
			v = append(vals, nil)
		}
		out.set(k, v)
	}
	return out
}

// comment is a declaration's leading comment in the protos.
func comment(d protoreflect.Descriptor) string {
	return protocomments.Leading[string(d.FullName())]
}

// enumValues describes an enum field's values that carry a comment.
func enumValues(fd protoreflect.FieldDescriptor) string {
	if fd.Kind() != protoreflect.EnumKind {
		return ""
	}
	var parts []string
	values := fd.Enum().Values()
	for _, wire := range wirejson.EnumWireNames(fd) {
		for i := 0; i < values.Len(); i++ {
			v := values.Get(i)
			if c := comment(v); c != "" && wirejson.EnumWireName(fd.Enum(), v.Number()) == wire {
				parts = append(parts, "`"+wire+"`: "+strings.TrimSuffix(c, "."))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}

// joinText joins non-empty paragraphs.
func joinText(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}
