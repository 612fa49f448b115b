// Package wirejson renders and reads protobuf messages as the spec's JSON:
// field names from json_name, int64 as JSON numbers (never strings), enums by
// their wire_name option, timestamps as ISO-8601 in UTC, and absent/null/zero
// exactly as each field's (mp.options.v1.field) presence says. Decoding is
// strict: unknown fields, wrong types and duplicate keys are reported with the
// path of the offending value.
//
// protojson cannot express these conventions (it writes int64 as strings and
// never writes null for unset fields), so the platform owns this codec. Field
// plans are computed once per message type and cached.
package wirejson

import (
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
)

type wellKnown int

const (
	wkNone wellKnown = iota
	wkTimestamp
	wkValue
	wkStruct
	wkListValue
)

type fieldPlan struct {
	fd            protoreflect.FieldDescriptor
	name          string
	key           []byte // `"name":`
	presence      optionsv1.Presence
	objectEntries bool
	// rawJSON: a bytes field holding JSON the platform rendered, written
	// verbatim and never read from a request; repeated, a JSON array of
	// such values.
	rawJSON bool
	// rawJSONMessage names the message type a rawJSON field holds the
	// rendering of ("" when the field does not say).
	rawJSONMessage protoreflect.FullName
	// stringList: a repeated string field written as a JSON array of
	// strings; goField locates it in its generated Go struct.
	stringList bool
	goField    atomic.Pointer[goStringsField]
	// singularScalar: one value of a scalar kind (not a list, map or
	// message, not raw JSON), which the decoder reads without a path.
	singularScalar bool
	tracksPresence bool
	// maxItems is a list field's protovalidate max_items (0: none). The
	// decoder stops reading a longer list at the first item too many, so a
	// hostile body never becomes that many messages.
	maxItems int
	// kind is the value kind: of the element for lists, of the value for
	// maps.
	kind protoreflect.Kind
	// enum is the plan of an enum-kinded field, resolved with the field.
	enum *enumPlan
	// mapValue describes the values of a map field.
	mapValue *fieldPlan
	// sub caches the plan of a message-kinded field's type; resolved on
	// first use, since message types may refer to each other.
	sub atomic.Pointer[messagePlan]
}

// valuePlan describes values of fd's kind: a field's, a list element's or a
// map value's.
func valuePlan(fd protoreflect.FieldDescriptor) *fieldPlan {
	fp := &fieldPlan{fd: fd, kind: fd.Kind()}
	if fp.kind == protoreflect.EnumKind {
		fp.enum = enumPlanFor(fd.Enum())
	}
	return fp
}

// message returns the plan of a message-kinded field's type.
func (fp *fieldPlan) message() *messagePlan {
	if p := fp.sub.Load(); p != nil {
		return p
	}
	p := planFor(fp.fd.Message())
	fp.sub.Store(p)
	return p
}

type messagePlan struct {
	md        protoreflect.MessageDescriptor
	fields    []*fieldPlan
	byName    map[string]*fieldPlan
	wellKnown wellKnown
	// jsonArray: the message travels as the JSON array of its one repeated field.
	jsonArray *fieldPlan
	// wire is how the message is rendered from its encoding (wire.go).
	wire wirePlan
}

type enumPlan struct {
	toWire   map[protoreflect.EnumNumber]string
	fromWire map[string]protoreflect.EnumNumber
	names    string // "a, b, c" for error messages
}

var (
	messagePlans sync.Map // protoreflect.FullName → *messagePlan
	enumPlans    sync.Map // protoreflect.FullName → *enumPlan
)

func planFor(md protoreflect.MessageDescriptor) *messagePlan {
	if p, ok := messagePlans.Load(md.FullName()); ok {
		return p.(*messagePlan)
	}
	p := buildPlan(md)
	actual, _ := messagePlans.LoadOrStore(md.FullName(), p)
	return actual.(*messagePlan)
}

func buildPlan(md protoreflect.MessageDescriptor) *messagePlan {
	p := &messagePlan{md: md, byName: map[string]*fieldPlan{}}
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		p.wellKnown = wkTimestamp
	case "google.protobuf.Value":
		p.wellKnown = wkValue
	case "google.protobuf.Struct":
		p.wellKnown = wkStruct
	case "google.protobuf.ListValue":
		p.wellKnown = wkListValue
	}
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		fp := valuePlan(fd)
		fp.name = fd.JSONName()
		fp.tracksPresence = fd.HasPresence() && !fd.IsList() && !fd.IsMap()
		fp.maxItems = MaxItems(fd)
		if fd.IsMap() {
			fp.mapValue = valuePlan(fd.MapValue())
		}
		fp.key = append(appendString(nil, fp.name), ':')
		if opt, ok := proto.GetExtension(fd.Options(), optionsv1.E_Field).(*optionsv1.Field); ok && opt != nil {
			if opt.GetSessionCookie() || opt.GetEntityTag() {
				// The gateway sends it as a cookie or the ETag header; it
				// never travels in JSON, either way.
				continue
			}
			fp.presence = opt.GetPresence()
			fp.objectEntries = opt.GetObjectEntries()
			fp.rawJSON = opt.GetRawJson() && fd.Kind() == protoreflect.BytesKind && !fd.IsMap()
			if fp.rawJSON {
				fp.rawJSONMessage = protoreflect.FullName(opt.GetRawJsonMessage())
			}
		}
		fp.stringList = fd.IsList() && fp.kind == protoreflect.StringKind && !fp.objectEntries && !fp.rawJSON
		fp.singularScalar = !fd.IsList() && !fd.IsMap() && !fp.rawJSON && !fp.objectEntries &&
			fp.kind != protoreflect.MessageKind && fp.kind != protoreflect.GroupKind
		p.fields = append(p.fields, fp)
		p.byName[fp.name] = fp
	}
	if isArray, _ := proto.GetExtension(md.Options(), optionsv1.E_JsonArray).(bool); isArray && len(p.fields) == 1 && p.fields[0].fd.IsList() {
		p.jsonArray = p.fields[0]
	}
	return p
}

func enumPlanFor(ed protoreflect.EnumDescriptor) *enumPlan {
	if p, ok := enumPlans.Load(ed.FullName()); ok {
		return p.(*enumPlan)
	}
	p := &enumPlan{toWire: map[protoreflect.EnumNumber]string{}, fromWire: map[string]protoreflect.EnumNumber{}}
	values := ed.Values()
	for i := 0; i < values.Len(); i++ {
		v := values.Get(i)
		wire, _ := proto.GetExtension(v.Options(), optionsv1.E_WireName).(string)
		if wire == "" {
			continue // UNSPECIFIED and internal values never travel
		}
		p.toWire[v.Number()] = wire
		p.fromWire[wire] = v.Number()
		if p.names != "" {
			p.names += ", "
		}
		p.names += wire
	}
	actual, _ := enumPlans.LoadOrStore(ed.FullName(), p)
	return actual.(*enumPlan)
}

// EnumWireName is the wire spelling of an enum value ("" when it has none).
func EnumWireName(ed protoreflect.EnumDescriptor, n protoreflect.EnumNumber) string {
	return enumPlanFor(ed).toWire[n]
}

// ParseEnum reads an enum value from its wire spelling.
func ParseEnum(ed protoreflect.EnumDescriptor, s string) (protoreflect.EnumNumber, bool) {
	n, ok := enumPlanFor(ed).fromWire[s]
	return n, ok
}
