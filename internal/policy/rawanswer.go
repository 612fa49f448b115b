package policy

import (
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// RawAnswer reports whether a method answers raw bytes rather than the
// success envelope: its response is a google.api.HttpBody, or its HTTP
// rule's response_body names a google.api.HttpBody field (a label
// document, whose other fields travel as headers: its entity tag). The
// route's media_types list the media types the bytes may have.
func (m *Method) RawAnswer() bool {
	if m.Desc == nil {
		return false
	}
	out := m.Desc.Output()
	if out.FullName() == httpBody {
		return true
	}
	rule, _ := proto.GetExtension(m.Desc.Options(), annotations.E_Http).(*annotations.HttpRule)
	rb := rule.GetResponseBody()
	if rb == "" {
		return false
	}
	fd := out.Fields().ByName(protoreflect.Name(rb))
	return fd != nil && fd.Message() != nil && fd.Message().FullName() == httpBody
}
