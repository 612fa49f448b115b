package core

import (
	"buf.build/go/protovalidate"
	"google.golang.org/protobuf/proto"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/validation"
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
		path := validation.FieldPath(req.ProtoReflect().Descriptor(), v, bodyField)
		msg := validation.Message(v)
		if path == "" {
			parts = append(parts, msg)
			continue
		}
		parts = append(parts, path+": "+msg)
	}
	return apierr.JoinViolations(parts, len(verr.Violations))
}
