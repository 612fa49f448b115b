package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"go.uber.org/zap"
	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/grpccodec"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/serviceset"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// coreCall is how one route reaches core, resolved at start-up: the
// gateway matches a request once, in its own table, and calls the method
// with a request message it builds from the path, the query and the body.
// The request and answer are the generated Go types, so the link's codec
// marshals them with their generated code.
type coreCall struct {
	method *policy.Method
	input  protoreflect.MessageType
	output protoreflect.MessageType
	// vars are the fields the route's path variables fill, in path order.
	vars []pathVar
	// body is the field a named body fills (nil: no body, or "*").
	body protoreflect.FieldDescriptor
	// whole: the body fills the whole request (body "*").
	whole bool
	// answer is the response field the HTTP answer is made of
	// (response_body; nil for the whole response).
	answer protoreflect.FieldDescriptor
	// wire: the gateway only renders the answer (no header comes from it),
	// so it receives the answer's encoding and renders it from the wire
	// (writeWireAnswer) instead of decoding it into a message first.
	wire bool
}

// coreCalls resolves every route of core's services that the service list
// registers on the partner port (serviceset's Gateway functions). A route of
// the table whose service registers none is left out, and answers 404 as a
// path with no endpoint.
func coreCalls(routes []*policy.Route, owned map[string]http.HandlerFunc, conn *grpc.ClientConn) (map[*policy.Route]*coreCall, error) {
	registered, err := registeredPatterns(conn, routes)
	if err != nil {
		return nil, err
	}
	calls := map[*policy.Route]*coreCall{}
	for _, rt := range routes {
		if _, ok := owned[rt.Method.FullMethod]; ok {
			continue
		}
		pattern, ok := registered[rt]
		if !ok {
			continue
		}
		if want := grpcGatewayPattern(rt); pattern != want {
			return nil, fmt.Errorf("gateway: %s %s: the generated routes serve the path as %s, not %s", rt.HTTPMethod, rt.Template, pattern, want)
		}
		c, err := newCoreCall(rt)
		if err != nil {
			return nil, err
		}
		calls[rt] = c
	}
	return calls, nil
}

func newCoreCall(rt *policy.Route) (*coreCall, error) {
	m := rt.Method
	in, err := protoregistry.GlobalTypes.FindMessageByName(m.Desc.Input().FullName())
	if err != nil {
		return nil, fmt.Errorf("gateway: request type of %s: %w", m.FullMethod, err)
	}
	out, err := protoregistry.GlobalTypes.FindMessageByName(m.Desc.Output().FullName())
	if err != nil {
		return nil, fmt.Errorf("gateway: response type of %s: %w", m.FullMethod, err)
	}
	c := &coreCall{method: m, input: in, output: out, whole: m.BodyField == "*"}
	fields := m.Desc.Input().Fields()
	for _, name := range rt.Variables() {
		fd := fields.ByName(protoreflect.Name(name))
		if fd == nil || fd.Kind() != protoreflect.StringKind || fd.IsList() {
			return nil, fmt.Errorf("gateway: %s %s: path variable %s is not a string field of %s", rt.HTTPMethod, rt.Template, name, m.Desc.Input().FullName())
		}
		c.vars = append(c.vars, pathVar{fd: fd, index: stringFieldIndex(reflect.TypeOf(in.Zero().Interface()), fd)})
	}
	if m.BodyField != "" && !c.whole {
		fd := fields.ByName(protoreflect.Name(m.BodyField))
		if fd == nil || fd.Message() == nil || fd.IsList() {
			return nil, fmt.Errorf("gateway: %s: body field %s is not a message field", m.FullMethod, m.BodyField)
		}
		c.body = fd
	}
	if m.ResponseBody != "" {
		fd := m.Desc.Output().Fields().ByName(protoreflect.Name(m.ResponseBody))
		if fd == nil || fd.Message() == nil || fd.IsList() {
			return nil, fmt.Errorf("gateway: %s: response body field %s is not a message field", m.FullMethod, m.ResponseBody)
		}
		c.answer = fd
	}
	return c, nil
}

// probeKey marks the start-up requests that ask grpc-gateway's generated
// registrations which pattern serves a route.
type probeKey struct{}

// registeredPatterns registers every partner-facing service's generated
// routes on a grpc-gateway mux that never calls core, and asks it, for each
// route of the table, which pattern it would serve the route's path with.
func registeredPatterns(conn *grpc.ClientConn, routes []*policy.Route) (map[*policy.Route]string, error) {
	mux := runtime.NewServeMux(
		runtime.WithMiddlewares(func(runtime.HandlerFunc) runtime.HandlerFunc {
			return func(_ http.ResponseWriter, r *http.Request, _ map[string]string) {
				if p, ok := r.Context().Value(probeKey{}).(*string); ok {
					if pat, ok := runtime.HTTPPattern(r.Context()); ok {
						*p = pat.String()
					}
				}
			}
		}),
		runtime.WithRoutingErrorHandler(func(context.Context, *runtime.ServeMux, runtime.Marshaler, http.ResponseWriter, *http.Request, int) {}),
	)
	for _, svc := range serviceset.All() {
		if svc.Gateway == nil {
			continue // internal: no routes on the partner port
		}
		if err := svc.Gateway(context.Background(), mux, conn); err != nil {
			return nil, fmt.Errorf("gateway: routes of %s: %w", svc.Name, err)
		}
	}
	out := map[*policy.Route]string{}
	for _, rt := range routes {
		var pattern string
		req, err := http.NewRequestWithContext(context.WithValue(context.Background(), probeKey{}, &pattern), rt.HTTPMethod, samplePath(rt), nil)
		if err != nil {
			return nil, fmt.Errorf("gateway: route %s %s: %w", rt.HTTPMethod, rt.Template, err)
		}
		mux.ServeHTTP(discard{header: http.Header{}}, req)
		if pattern != "" {
			out[rt] = pattern
		}
	}
	return out, nil
}

// discard is a response writer that keeps nothing.
type discard struct{ header http.Header }

func (d discard) Header() http.Header       { return d.header }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// samplePath is a path the route matches, each variable a segment no
// template has as a literal.
func samplePath(rt *policy.Route) string {
	return rt.Path(func(string) string { return "_" })
}

// grpcGatewayPattern is a route's template as grpc-gateway's
// Pattern.String writes it: "/open/v1/orders/{id=*}".
func grpcGatewayPattern(rt *policy.Route) string {
	return rt.Path(func(name string) string { return "{" + name + "=*}" })
}

// queryInto parses the query strictly into the request message about to go
// to core: the one parse of the query. A body that fills the whole request
// leaves the query no field to fill; its query is checked all the same,
// into a message that is dropped.
func (g *Gateway) queryInto(r *http.Request, c *coreCall, req protoreflect.Message) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	values, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return apierr.New(apierr.BadRequest, "the query string is malformed")
	}
	if c.whole {
		req = c.input.New()
	}
	return wirejson.ParseQuery(req.Interface(), values, g.queries[c.method.FullMethod].excluded)
}

// coreRequest is what callCore needs of the request besides its message
// and its route's match.
type coreRequest struct {
	body []byte
	// optional: an empty body means "not sent" rather than malformed JSON.
	optional bool
	// contentType is the declared media type of a raw body.
	contentType string
}

// callCore fills the request message's body and path fields, calls core
// with the verified request state as metadata and writes the answer: as
// grpc-gateway's generated handlers did, the body first, then the path's
// variables (which win over a whole body's fields of the same name), as
// the route's match found them.
func (g *Gateway) callCore(ctx context.Context, w *statusWriter, st *requestState, match *policy.Matched, c *coreCall, req protoreflect.Message, in coreRequest) {
	if err := c.decodeBody(req, in); err != nil {
		writeAPIError(w, st.requestID, err)
		return
	}
	var buf [4]string
	for i, v := range match.Bind(buf[:0]) {
		c.vars[i].set(req, v)
	}
	var kv [24]string
	ctx = metadata.AppendToOutgoingContext(ctx, st.appendMetadata(kv[:0])...)
	// Core's header metadata and the option that receives it live in the
	// request state, which is allocated anyway.
	st.callOpts[0] = grpc.Header(&st.header)
	if c.wire {
		raw := rawPool.Get().(*grpccodec.Raw)
		defer putRaw(raw)
		st.callOpts[1] = rawCodec
		if err := g.cfg.Core.Invoke(ctx, c.method.FullMethod, req.Interface(), raw, st.callOpts[:]...); err != nil {
			g.writeCoreError(w, st.requestID, st.header, err)
			return
		}
		g.writeWireAnswer(w, st, c, raw.Bytes)
		return
	}
	resp := c.output.New().Interface()
	if err := g.cfg.Core.Invoke(ctx, c.method.FullMethod, req.Interface(), resp, st.callOpts[:1]...); err != nil {
		g.writeCoreError(w, st.requestID, st.header, err)
		return
	}
	g.writeAnswer(w, st, c, resp)
}

// linkCodec is the codec of the link to core; rawCodec has a call receive
// its answer as its encoding (grpccodec.Raw) whatever codec the connection
// was dialled with: protobuf on the wire either way.
var (
	linkCodec = grpccodec.New()
	rawCodec  = grpc.ForceCodecV2(linkCodec)
)

// rawPool holds the buffers answers rendered from the wire arrive in.
var rawPool = sync.Pool{New: func() any { return &grpccodec.Raw{Bytes: make([]byte, 0, 4096)} }}

// maxPooledRaw bounds the buffers rawPool keeps: a rare large answer (a
// bulk create's) is not held for the small ones.
const maxPooledRaw = 64 << 10

func putRaw(r *grpccodec.Raw) {
	if cap(r.Bytes) <= maxPooledRaw {
		rawPool.Put(r)
	}
}

// writeWireAnswer writes an answer received as its encoding: rendered from
// the wire into the envelope, with the header fields every answer gets. An
// encoding the walk declines is decoded with the link's codec and written
// by writeAnswer, as every answer was before.
func (g *Gateway) writeWireAnswer(w *statusWriter, st *requestState, c *coreCall, wire []byte) {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	b, ok := envelope{}.renderWire(bp, c.output.Descriptor(), wire)
	if !ok {
		resp := c.output.New().Interface()
		if err := linkCodec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(wire)}, resp); err != nil {
			g.writeCoreError(w, st.requestID, st.header, fmt.Errorf("gateway: answer: %w", err))
			return
		}
		g.writeAnswer(w, st, c, resp)
		return
	}
	h := w.Header()
	g.coreHeaders(h, st)
	h.Set("Content-Type", "application/json")
	g.afterConsole(st, w)
	g.writeBody(w, st, b)
}

// writeBody writes a rendered answer; a client that has gone is logged at
// debug.
func (g *Gateway) writeBody(w http.ResponseWriter, st *requestState, b []byte) {
	if _, err := w.Write(b); err != nil && !errors.Is(err, http.ErrBodyNotAllowed) {
		g.log.Debug("answer not written", zap.String("request_id", st.requestID), zap.Error(err))
	}
}

// coreHeaders copies the header fields core asked for (its header metadata)
// onto the answer.
func (g *Gateway) coreHeaders(h http.Header, st *requestState) {
	for k, vs := range st.header {
		if name, ok := outgoingHeader(k); ok {
			for _, v := range vs {
				h.Add(name, v)
			}
		}
	}
}

// pathVar is a request field a path variable fills: a singular string
// field, set in the generated Go struct directly when it is one of its
// fields (setting it through protoreflect boxes the string twice).
type pathVar struct {
	fd    protoreflect.FieldDescriptor
	index int // the Go struct field's index; -1: set through protoreflect
}

func (pv pathVar) set(m protoreflect.Message, v string) {
	if pv.index >= 0 {
		if rv := reflect.ValueOf(m.Interface()); rv.Kind() == reflect.Pointer && !rv.IsNil() {
			rv.Elem().Field(pv.index).SetString(v)
			return
		}
	}
	m.Set(pv.fd, protoreflect.ValueOfString(v))
}

// stringFieldIndex is the index of the string field of the generated struct
// *T whose protobuf tag carries fd's number, or -1 (a oneof member, an
// optional field's pointer, or not a generated struct).
func stringFieldIndex(t reflect.Type, fd protoreflect.FieldDescriptor) int {
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || fd.ContainingOneof() != nil {
		return -1
	}
	t = t.Elem()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Type.Kind() != reflect.String || !sf.IsExported() {
			continue
		}
		parts := strings.Split(sf.Tag.Get("protobuf"), ",")
		if len(parts) < 2 {
			continue
		}
		if num, err := strconv.Atoi(parts[1]); err == nil && protoreflect.FieldNumber(num) == fd.Number() {
			return i
		}
	}
	return -1
}

// decodeBody reads the body into the request message: the whole message,
// its body field, or a raw body's google.api.HttpBody as sent.
func (c *coreCall) decodeBody(req protoreflect.Message, in coreRequest) error {
	if c.body == nil && !c.whole {
		return nil // the route takes no body; whatever came is ignored
	}
	if len(in.body) == 0 && in.optional {
		return nil
	}
	if c.whole {
		return wirejson.Unmarshal(in.body, req.Interface())
	}
	if c.method.RawBody {
		hb := &httpbody.HttpBody{ContentType: in.contentType, Data: in.body}
		req.Set(c.body, protoreflect.ValueOfMessage(hb.ProtoReflect()))
		return nil
	}
	return wirejson.Unmarshal(in.body, req.Mutable(c.body).Message().Interface())
}

// writeAnswer writes core's success answer: the replay mark from core's
// header metadata, the media type, the answer's header fields (afterCore,
// applyResponseFields, rawAnswerHeaders, afterConsole, in that order), then
// the body,
// written from the pooled buffer it was rendered into.
func (g *Gateway) writeAnswer(w *statusWriter, st *requestState, c *coreCall, resp proto.Message) {
	h := w.Header()
	g.coreHeaders(h, st)
	answer := resp
	if c.answer != nil {
		answer = answerField{Message: resp, field: c.answer}
	}
	h.Set("Content-Type", envelope{}.ContentType(answer))
	err := g.afterCore(st, w, answer)
	if err == nil {
		err = g.applyResponseFields(st, w, answer)
	}
	if err == nil {
		rawAnswerHeaders(w, answer)
		g.afterConsole(st, w)
	}
	if err != nil {
		g.writeCoreError(w, st.requestID, st.header, fmt.Errorf("gateway: answer headers: %w", err))
		return
	}
	var body any = resp
	if rb, ok := answer.(responseBody); ok {
		body = rb.XXX_ResponseBody()
	}
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	b, err := envelope{}.render(bp, body)
	if err != nil {
		g.writeCoreError(w, st.requestID, st.header, fmt.Errorf("gateway: answer: %w", err))
		return
	}
	g.writeBody(w, st, b)
}

// answerField is an answer whose HTTP body is one of its fields
// (response_body): the rest of the answer still reaches the header fields'
// writers.
type answerField struct {
	proto.Message
	field protoreflect.FieldDescriptor
}

func (a answerField) XXX_ResponseBody() any {
	return a.ProtoReflect().Get(a.field).Message().Interface()
}

// writeCoreError renders an error from core through the one error writer.
func (g *Gateway) writeCoreError(w http.ResponseWriter, rid string, header metadata.MD, err error) {
	requestID := rid
	// A replayed error answer is marked like a replayed success, and its
	// body is the first answer's, request id included; X-Request-Id still
	// names this request.
	if len(header.Get(principal.KeyReplayed)) > 0 {
		w.Header().Set(HeaderIdempotentReplayed, "true")
		if first := principal.First(header, principal.KeyReplayOf); first != "" {
			requestID = first
		}
	}
	code, msg, fields := apierr.FromStatusFields(statusOf(err))
	if code == apierr.Internal {
		g.log.Error("core call failed", zap.String("request_id", rid), zap.Error(err))
	}
	writeErrorFields(w, requestID, code, msg, fields)
}

// appendMetadata appends the verified request state as gRPC metadata pairs
// for core.
func (st *requestState) appendMetadata(kv []string) []string {
	kv = append(kv, principal.KeyRequestID, st.requestID)
	if st.principal != nil {
		kv = st.principal.AppendMetadata(kv)
	}
	if st.idempotency != "" {
		kv = append(kv, principal.KeyIdempotency, st.idempotency, principal.KeyFingerprint, st.fingerprint)
	}
	if st.clientIP != "" {
		kv = append(kv, principal.KeyClientIP, st.clientIP)
	}
	if st.consentSession != "" {
		kv = append(kv, principal.KeyConsentSession, st.consentSession)
	}
	return st.console.appendMetadata(kv)
}
