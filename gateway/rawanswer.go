package gateway

import (
	"net/http"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/protobuf/proto"
)

// responseBody is how grpc-gateway hands over an answer whose HTTP body is
// one of its fields (google.api.http response_body): a wrapper of the
// answer that names the field's value.
type responseBody interface{ XXX_ResponseBody() any }

// rawAnswer finds the google.api.HttpBody a core answer is made of: the
// answer itself, or its response_body field (a label document, whose other
// fields, such as the entity tag, travel as headers). Such an answer is
// written as its bytes with its own media type, not in the envelope; the
// route declares the media types it may have (policy media_types, which
// the OpenAPI document lists). Errors keep the envelope.
func rawAnswer(v any) (*httpbody.HttpBody, bool) {
	if rb, ok := v.(responseBody); ok {
		v = rb.XXX_ResponseBody()
	}
	hb, ok := v.(*httpbody.HttpBody)
	return hb, ok && hb != nil
}

// rawAnswerHeaders runs on every successful answer of core: a raw answer (a
// shipping label) carries a buyer's name, phone and address, so no shared
// cache may keep it (private), the client revalidates its copy with the ETag
// (no-cache), and a browser takes the declared media type as it is
// (nosniff).
func rawAnswerHeaders(w http.ResponseWriter, m proto.Message) {
	if _, raw := rawAnswer(m); raw {
		w.Header().Set("Cache-Control", "private, no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
	}
}
