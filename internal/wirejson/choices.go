package wirejson

import (
	"slices"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// EnumChoices lists the wire names an enum field accepts, for error
// messages: those of its protovalidate `in` rule when it has one (a listing
// filter may accept fewer values than its enum holds), otherwise every value
// that travels.
func EnumChoices(fd protoreflect.FieldDescriptor) string {
	plan := enumPlanFor(fd.Enum())
	in := enumRule(fd).GetIn()
	if len(in) == 0 {
		return plan.names
	}
	names := make([]string, 0, len(in))
	for _, n := range in {
		if wire, ok := plan.toWire[protoreflect.EnumNumber(n)]; ok && !slices.Contains(names, wire) {
			names = append(names, wire)
		}
	}
	return strings.Join(names, ", ")
}

// enumRule is the field's protovalidate enum rule, on the field itself or on
// the items of a repeated field.
func enumRule(fd protoreflect.FieldDescriptor) *validate.EnumRules {
	rules, _ := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
	if fd.IsList() {
		return rules.GetRepeated().GetItems().GetEnum()
	}
	return rules.GetEnum()
}
