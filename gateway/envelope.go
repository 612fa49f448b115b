package gateway

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"sync"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"

	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// envelope is the grpc-gateway marshaler. Core's responses are the envelope
// minus "success" ({data, meta}), so marshalling writes
// {"success":true,<fields>}. Decoding reads request bodies strictly.
type envelope struct{}

var _ runtime.Marshaler = envelope{}

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

func (envelope) Unmarshal(data []byte, v any) error {
	m, err := messageOf(v)
	if err != nil {
		return err
	}
	return wirejson.Unmarshal(data, m)
}

// messageOf accepts what grpc-gateway decodes into: the request message, or
// for `body: "field"` bindings a pointer to the (nil) message field, which
// is allocated here.
func messageOf(v any) (proto.Message, error) {
	if m, ok := v.(proto.Message); ok {
		return m, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Pointer {
		if rv.Elem().IsNil() {
			rv.Elem().Set(reflect.New(rv.Elem().Type().Elem()))
		}
		if m, ok := rv.Elem().Interface().(proto.Message); ok {
			return m, nil
		}
	}
	return nil, errors.New("gateway: request body target is not a proto message")
}

func (e envelope) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		body, ok := r.(*bodyReader)
		var data []byte
		if ok {
			data = body.data
			if len(data) == 0 && body.optional {
				// grpc-gateway reads io.EOF as "no body".
				return io.EOF
			}
		} else {
			var err error
			if data, err = io.ReadAll(r); err != nil {
				return err
			}
		}
		var err error
		if hb, raw := v.(**httpbody.HttpBody); raw && ok {
			// A raw body (policy.Method.RawBody): the bytes as sent and
			// the Content-Type the client declared, which forCore has
			// taken off the request.
			*hb = &httpbody.HttpBody{ContentType: body.contentType, Data: data}
		} else {
			err = e.Unmarshal(data, v)
		}
		if ok {
			// grpc-gateway flattens decode errors into a plain status; keep
			// the typed error where the error handler can find it.
			body.decodeErr = err
		}
		return err
	})
}

func (e envelope) NewEncoder(w io.Writer) runtime.Encoder {
	return runtime.EncoderFunc(func(v any) error {
		b, err := e.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
}

func (envelope) ContentType(v any) string {
	if hb, raw := rawAnswer(v); raw {
		return hb.GetContentType()
	}
	return "application/json"
}

// bodyReader is the request body after the gateway has read it (to cap and
// hash it): the decoder takes the bytes directly instead of re-reading.
type bodyReader struct {
	data []byte
	off  int
	// optional: an empty body is "not sent" (policy.Method.BodyOptional),
	// not malformed JSON.
	optional  bool
	decodeErr error
	// contentType is the declared Content-Type of a raw body.
	contentType string
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.off >= len(b.data) {
		return 0, io.EOF
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

func (b *bodyReader) Close() error { return nil }
