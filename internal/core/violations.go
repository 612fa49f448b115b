package core

import (
	"strconv"
	"strings"

	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// describeViolations renders validation failures as one message naming each
// field by its wire (JSON) path as the partner sent it: the HTTP body field's
// name is dropped, because the body is that field. Only the first few
// violations are rendered and the others counted (apierr.JoinViolations): a
// body wrong in thousands of places costs no more to describe than one wrong
// in ten, and its message stays small.
func describeViolations(req proto.Message, verr *protovalidate.ValidationError, bodyField string) string {
	n := min(len(verr.Violations), apierr.MaxListedViolations)
	parts := make([]string, 0, n)
	for _, v := range verr.Violations[:n] {
		path := wirePath(req.ProtoReflect().Descriptor(), v, bodyField)
		msg := v.Proto.GetMessage()
		if fd := v.FieldDescriptor; fd != nil && fd.Kind() == protoreflect.EnumKind && strings.HasPrefix(v.Proto.GetRuleId(), "enum.") {
			// protovalidate names enum values by number; partners know them
			// by their wire names.
			msg = "must be one of: " + wirejson.EnumChoices(fd)
		}
		if msg == "" {
			msg = "is invalid (" + v.Proto.GetRuleId() + ")"
		}
		if path == "" {
			parts = append(parts, msg)
			continue
		}
		parts = append(parts, path+": "+msg)
	}
	return apierr.JoinViolations(parts, len(verr.Violations))
}

func wirePath(md protoreflect.MessageDescriptor, v *protovalidate.Violation, bodyField string) string {
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
