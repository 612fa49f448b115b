package wirejson

import (
	"fmt"
	"sort"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
)

const (
	presenceNull      = optionsv1.Presence_PRESENCE_NULL
	presenceOmitEmpty = optionsv1.Presence_PRESENCE_OMIT_EMPTY
)

// google.protobuf.Value and friends carry free-form JSON (attribute values).

func appendValue(b []byte, m protoreflect.Message) ([]byte, error) {
	v, ok := m.Interface().(*structpb.Value)
	if !ok {
		return nil, fmt.Errorf("wirejson: unexpected Value implementation %T", m.Interface())
	}
	return appendStructValue(b, v)
}

func appendStruct(b []byte, m protoreflect.Message) ([]byte, error) {
	s, ok := m.Interface().(*structpb.Struct)
	if !ok {
		return nil, fmt.Errorf("wirejson: unexpected Struct implementation %T", m.Interface())
	}
	return appendStructFields(b, s)
}

func appendListValue(b []byte, m protoreflect.Message) ([]byte, error) {
	l, ok := m.Interface().(*structpb.ListValue)
	if !ok {
		return nil, fmt.Errorf("wirejson: unexpected ListValue implementation %T", m.Interface())
	}
	return appendStructList(b, l)
}

func appendStructValue(b []byte, v *structpb.Value) ([]byte, error) {
	switch k := v.GetKind().(type) {
	case nil, *structpb.Value_NullValue:
		return append(b, "null"...), nil
	case *structpb.Value_BoolValue:
		if k.BoolValue {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case *structpb.Value_NumberValue:
		return appendFloat(b, k.NumberValue)
	case *structpb.Value_StringValue:
		return appendString(b, k.StringValue), nil
	case *structpb.Value_StructValue:
		return appendStructFields(b, k.StructValue)
	case *structpb.Value_ListValue:
		return appendStructList(b, k.ListValue)
	}
	return nil, fmt.Errorf("wirejson: unknown Value kind %T", v.GetKind())
}

func appendStructFields(b []byte, s *structpb.Struct) ([]byte, error) {
	keys := make([]string, 0, len(s.GetFields()))
	for k := range s.GetFields() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		if b, err = appendStructValue(b, s.GetFields()[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendStructList(b []byte, l *structpb.ListValue) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i, v := range l.GetValues() {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendStructValue(b, v); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}
