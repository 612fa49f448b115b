package gateway

import (
	"bytes"
	"errors"
	"sync"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"

	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// envelope writes core's answers. Core's responses are the envelope minus
// "success" ({data, meta}), so marshalling writes {"success":true,<fields>}.
type envelope struct{}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func (envelope) Marshal(v any) ([]byte, error) {
	if hb, raw := v.(*httpbody.HttpBody); raw {
		// A raw answer (rawanswer.go): its bytes, no envelope.
		return hb.GetData(), nil
	}
	m, ok := v.(proto.Message)
	if !ok {
		return nil, errors.New("gateway: response is not a proto message")
	}
	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], `{"success":true`...)
	b, wrote, err := wirejson.AppendFields(append(b, ','), m)
	if err != nil {
		bufPool.Put(bp)
		return nil, err
	}
	if !wrote {
		b = b[:len(b)-1] // drop the comma: no fields
	}
	b = append(b, '}')
	out := bytes.Clone(b)
	*bp = b
	bufPool.Put(bp)
	return out, nil
}

func (envelope) ContentType(v any) string {
	if hb, raw := rawAnswer(v); raw {
		return hb.GetContentType()
	}
	return "application/json"
}
