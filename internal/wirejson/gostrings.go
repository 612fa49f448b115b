package wirejson

import (
	"reflect"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// goStringsField locates a repeated string field in its generated Go
// struct: reading the items through protoreflect's list copies every string
// into a new allocation (the list's items are addressable, and converting
// one to a protoreflect.Value copies it), where reading the []string itself
// allocates nothing. Found once per Go type; a message of another Go type
// (dynamicpb) takes the reflective path.
type goStringsField struct {
	typ   reflect.Type // the struct type
	index int          // -1: the type has no such field
}

// goStrings returns the []string of fd in m (a repeated string field), and
// whether m is a generated message whose field could be read directly.
func (fp *fieldPlan) goStrings(m protoreflect.Message) (reflect.Value, bool) {
	rv := reflect.ValueOf(m.Interface())
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	rv = rv.Elem()
	f := fp.goField.Load()
	if f == nil || f.typ != rv.Type() {
		f = &goStringsField{typ: rv.Type(), index: stringsFieldIndex(rv.Type(), fp.fd.Number())}
		fp.goField.Store(f)
	}
	if f.index < 0 {
		return reflect.Value{}, false
	}
	return rv.Field(f.index), true
}

// stringsFieldIndex is the index of the []string struct field whose
// protobuf tag carries number n, or -1.
func stringsFieldIndex(t reflect.Type, n protoreflect.FieldNumber) int {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Type.Kind() != reflect.Slice || sf.Type.Elem().Kind() != reflect.String {
			continue
		}
		parts := strings.Split(sf.Tag.Get("protobuf"), ",")
		if len(parts) < 2 {
			continue
		}
		if num, err := strconv.Atoi(parts[1]); err == nil && protoreflect.FieldNumber(num) == n {
			return i
		}
	}
	return -1
}

// appendGoStrings writes a []string as a JSON array of strings.
func appendGoStrings(b []byte, l reflect.Value) []byte {
	b = append(b, '[')
	for i := 0; i < l.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, l.Index(i).String())
	}
	return append(b, ']')
}
