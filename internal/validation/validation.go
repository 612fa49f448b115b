// Package validation holds the process's one protovalidate validator and the
// rendering of its violations as the partner sees them: core's request
// interceptor validates every request with it, and a bulk write validates
// each of its items with it, so that an item fails exactly as the same input
// sent alone would.
package validation

import (
	"strconv"
	"strings"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// Validator is the process's validator. protovalidate compiles and caches
// the rules of each message type it meets; one instance does that once.
func Validator() protovalidate.Validator { return protovalidate.GlobalValidator }

// Message is what a violation says, with enum values named by their wire
// names (protovalidate names them by number).
func Message(v *protovalidate.Violation) string {
	msg := v.Proto.GetMessage()
	if fd := v.FieldDescriptor; fd != nil && fd.Kind() == protoreflect.EnumKind && strings.HasPrefix(v.Proto.GetRuleId(), "enum.") {
		msg = "must be one of: " + wirejson.EnumChoices(fd)
	}
	if msg == "" {
		msg = "is invalid (" + v.Proto.GetRuleId() + ")"
	}
	return msg
}

// FieldPath is the violation's field as the partner sent it, from message
// md: JSON names, list indexes and map keys; the HTTP body field's name is
// dropped (the body is that field), and a json_array message travels as its
// list. "" for a rule of the message as a whole.
func FieldPath(md protoreflect.MessageDescriptor, v *protovalidate.Violation, bodyField string) string {
	var b strings.Builder
	inArray := false // the previous field's message travels as its list (json_array)
	for i, el := range v.Proto.GetField().GetElements() {
		var fd protoreflect.FieldDescriptor
		if md != nil {
			fd = md.Fields().ByNumber(protoreflect.FieldNumber(el.GetFieldNumber()))
		}
		name := el.GetFieldName()
		if fd != nil {
			name = fd.JSONName()
		}
		isBody := i == 0 && bodyField != "" && bodyField != "*" && el.GetFieldName() == bodyField
		if !isBody && !inArray {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(name)
		}
		switch {
		case el.HasIndex():
			b.WriteString("[" + strconv.FormatUint(el.GetIndex(), 10) + "]")
		case el.HasStringKey():
			b.WriteString("[" + strconv.Quote(el.GetStringKey()) + "]")
		}
		md, inArray = nil, false
		if fd != nil && fd.Message() != nil {
			md = fd.Message()
			inArray, _ = proto.GetExtension(md.Options(), optionsv1.E_JsonArray).(bool)
		}
	}
	return b.String()
}
