package core

import (
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// checkBounds runs before protovalidate, on every request whatever its
// caller (the gateway's decoder applies the same two rules to JSON, but
// internal callers reach core over gRPC directly). It refuses
//
//   - a list longer than its protovalidate max_items rule, so that a request
//     of 200,000 items is refused in one comparison instead of being
//     validated item by item (0.3-1.5 s of core per request);
//   - a string that is not storable text: NUL or invalid UTF-8, which
//     PostgreSQL rejects (SQLSTATE 22021) and which would otherwise surface
//     as a 500.
//
// Fields bound from the URL path are identifiers: the services answer
// NOT_FOUND, without a query, for one that cannot exist, so they are left to
// them. Fields are named as the partner sent them, like describeViolations
// does: JSON names, the body field dropped, a json_array list as the list.
func checkBounds(req proto.Message, bodyField string, pathFields map[string]bool) error {
	w := boundsWalker{bodyField: bodyField, pathFields: pathFields}
	return w.message(req.ProtoReflect(), 0)
}

// maxBoundsDepth stops the walk on absurdly nested values; gRPC's decoder
// and protovalidate bound recursion on their own.
const maxBoundsDepth = 100

type boundsWalker struct {
	bodyField  string
	pathFields map[string]bool
	path       []pathSegment
}

// pathSegment is one step of a field path. name is "" when the step is
// not shown (the body field; the field of a json_array message).
type pathSegment struct {
	name   string
	index  int // list position, or -1
	key    string
	hasKey bool
}

func (w *boundsWalker) message(m protoreflect.Message, depth int) error {
	if depth > maxBoundsDepth {
		return nil
	}
	plan := boundsPlanFor(m.Descriptor())
	for _, f := range plan.fields {
		if !m.Has(f.fd) {
			continue
		}
		name := f.fd.JSONName()
		if depth == 0 {
			if w.pathFields[string(f.fd.Name())] {
				continue
			}
			if w.bodyField != "" && w.bodyField != "*" && string(f.fd.Name()) == w.bodyField {
				name = ""
			}
		}
		if plan.hideNames {
			name = ""
		}
		if err := w.field(f, m.Get(f.fd), name, depth); err != nil {
			return err
		}
	}
	return nil
}

func (w *boundsWalker) field(f boundsField, v protoreflect.Value, name string, depth int) error {
	fd := f.fd
	switch {
	case fd.IsList():
		l := v.List()
		if f.maxItems > 0 && l.Len() > f.maxItems {
			return w.fail(pathSegment{name: name, index: -1}, wirejson.TooManyItems(f.maxItems))
		}
		if !mayHoldText(fd.Kind()) {
			return nil
		}
		for i := 0; i < l.Len(); i++ {
			if err := w.value(fd, l.Get(i), pathSegment{name: name, index: i}, depth); err != nil {
				return err
			}
		}
	case fd.IsMap():
		var err error
		v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
			seg := pathSegment{name: name, index: -1, key: k.String(), hasKey: fd.MapKey().Kind() == protoreflect.StringKind}
			if seg.hasKey {
				if problem := wirejson.CheckText(seg.key); problem != "" {
					err = w.fail(seg, "key "+problem)
					return false
				}
			}
			err = w.value(fd.MapValue(), mv, seg, depth)
			return err == nil
		})
		return err
	default:
		return w.value(fd, v, pathSegment{name: name, index: -1}, depth)
	}
	return nil
}

// value checks one value of fd's kind (a field's, a list element's or a map
// value) found at seg.
func (w *boundsWalker) value(fd protoreflect.FieldDescriptor, v protoreflect.Value, seg pathSegment, depth int) error {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if problem := wirejson.CheckText(v.String()); problem != "" {
			return w.fail(seg, problem)
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		w.path = append(w.path, seg)
		err := w.message(v.Message(), depth+1)
		w.path = w.path[:len(w.path)-1]
		return err
	}
	return nil
}

func mayHoldText(k protoreflect.Kind) bool {
	return k == protoreflect.StringKind || k == protoreflect.MessageKind || k == protoreflect.GroupKind
}

func (w *boundsWalker) fail(last pathSegment, problem string) error {
	var b strings.Builder
	for _, seg := range append(w.path, last) {
		if seg.name != "" {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg.name)
		}
		switch {
		case seg.index >= 0:
			b.WriteString("[" + strconv.Itoa(seg.index) + "]")
		case seg.hasKey:
			b.WriteString("[" + strconv.Quote(apierr.Truncate(seg.key, 64)) + "]")
		}
	}
	if b.Len() == 0 {
		return apierr.New(apierr.ValidationError, problem)
	}
	return apierr.New(apierr.ValidationError, b.String()+": "+problem)
}

// boundsPlan is what the walk needs of a message type, read from its
// descriptor once: the fields that can hold text or carry a list bound
// (numbers, booleans and enums are skipped), and whether field names are
// hidden from paths.
type boundsPlan struct {
	fields []boundsField
	// hideNames: the fields of a json_array message and of the JSON
	// well-known types are not shown; on the wire the value is the list,
	// or plain JSON.
	hideNames bool
}

type boundsField struct {
	fd       protoreflect.FieldDescriptor
	maxItems int // protovalidate repeated.max_items, 0 when none
}

// boundsPlans caches plans by message descriptor: derived from the
// compiled-in descriptors, the same for every caller.
var boundsPlans sync.Map // protoreflect.MessageDescriptor → *boundsPlan

func boundsPlanFor(md protoreflect.MessageDescriptor) *boundsPlan {
	if p, ok := boundsPlans.Load(md); ok {
		return p.(*boundsPlan)
	}
	isArray, _ := proto.GetExtension(md.Options(), optionsv1.E_JsonArray).(bool)
	p := &boundsPlan{hideNames: isArray || md.FullName().Parent() == "google.protobuf"}
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		f := boundsField{fd: fd, maxItems: wirejson.MaxItems(fd)}
		relevant := mayHoldText(fd.Kind()) || f.maxItems > 0
		if fd.IsMap() {
			relevant = fd.MapKey().Kind() == protoreflect.StringKind || mayHoldText(fd.MapValue().Kind())
		}
		if relevant {
			p.fields = append(p.fields, f)
		}
	}
	actual, _ := boundsPlans.LoadOrStore(md, p)
	return actual.(*boundsPlan)
}
