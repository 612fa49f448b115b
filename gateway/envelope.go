package gateway

import (
	"errors"
	"sync"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// envelope writes core's answers. Core's responses are the envelope minus
// "success" ({data, meta}), so marshalling writes {"success":true,<fields>}.
type envelope struct{}

// bufPool holds the buffers answers are rendered into (writeAnswer).
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// render renders v into *bp, a buffer of bufPool, and keeps the grown
// buffer there for its next use: the bytes are valid until bp goes back to
// the pool.
func (e envelope) render(bp *[]byte, v any) ([]byte, error) {
	b, err := e.append((*bp)[:0], v)
	if err != nil {
		return nil, err
	}
	*bp = b[:0]
	return b, nil
}

// append appends the answer's rendering to b.
func (envelope) append(b []byte, v any) ([]byte, error) {
	if hb, raw := v.(*httpbody.HttpBody); raw {
		// A raw answer (rawanswer.go): its bytes, no envelope.
		return append(b, hb.GetData()...), nil
	}
	m, ok := v.(proto.Message)
	if !ok {
		return b, errors.New("gateway: response is not a proto message")
	}
	b, wrote, err := wirejson.AppendFields(openEnvelope(b), m)
	if err != nil {
		return b, err
	}
	return closeEnvelope(b, wrote), nil
}

// renderWire renders an answer of type md from its encoding into *bp, as
// render does; ok is false when the walk declines it (wirejson.AppendFieldsWire).
func (envelope) renderWire(bp *[]byte, md protoreflect.MessageDescriptor, wire []byte) ([]byte, bool) {
	b, wrote, ok := wirejson.AppendFieldsWire(openEnvelope((*bp)[:0]), md, wire)
	if !ok {
		return nil, false
	}
	b = closeEnvelope(b, wrote)
	*bp = b[:0]
	return b, true
}

// openEnvelope starts an answer: `{"success":true,`, the fields follow.
func openEnvelope(b []byte) []byte { return append(b, `{"success":true,`...) }

// closeEnvelope ends an answer whose fields follow openEnvelope (wrote: at
// least one was written).
func closeEnvelope(b []byte, wrote bool) []byte {
	if !wrote {
		b = b[:len(b)-1] // drop the comma: no fields
	}
	return append(b, '}')
}

func (envelope) ContentType(v any) string {
	if hb, raw := rawAnswer(v); raw {
		return hb.GetContentType()
	}
	return "application/json"
}
