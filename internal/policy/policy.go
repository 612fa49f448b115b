// Package policy reads the per-method policy declared in the protos
// ((mp.options.v1.policy) and google.api.http) into one table. The gateway
// routes and guards requests with it; core's interceptors enforce the same
// entries, so no route literal or scope is written twice in Go.
package policy

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
)

// DefaultMaxBodyBytes is the platform's request body cap (1 MiB).
const DefaultMaxBodyBytes = 1 << 20

// MaxInflatedBodyBytes caps the decompressed body of a route that accepts
// gzip (Policy.gzip_body): 10 MiB, counted while inflating.
const MaxInflatedBodyBytes = 10 << 20

// MaxMessageBytes is the largest gRPC message between gateway and core, both
// ways: core's receive limit and the gateway's, so that an answer core can
// send (5,000 products created in bulk) is one the gateway can take.
const MaxMessageBytes = 16 << 20

// PackagePrefix selects the platform's own proto packages.
const PackagePrefix = "mp."

// Method is one RPC with its policy and HTTP bindings.
type Method struct {
	// FullMethod is the gRPC method name, "/mp.orders.v1.OrdersService/GetOrder".
	FullMethod string
	Desc       protoreflect.MethodDescriptor
	Policy     *optionsv1.Policy
	Routes     []*Route
	// BodyField is the request field the HTTP body fills: "" (no body), "*" or a field name.
	BodyField string
	// BodyOptional: the body fills a named field that its rules do not
	// require, so an empty body means "not sent" rather than malformed JSON.
	BodyOptional bool
	// PathFields are the request fields bound from the path.
	PathFields map[string]bool
	// RawBody: the body fills a google.api.HttpBody field, so it travels
	// as it was sent (bytes and declared Content-Type), not as JSON.
	RawBody bool
	// ResponseBody is the response field the HTTP answer is made of
	// (google.api.http response_body); "" for the whole response.
	ResponseBody string
}

// httpBody is the message a raw request body (or answer) travels in.
const httpBody protoreflect.FullName = "google.api.HttpBody"

// Scope is the scope the method requires ("" when any verified app may call).
func (m *Method) Scope() string { return m.Policy.GetScope() }

// SellerToken reports whether the seller headers are required.
func (m *Method) SellerToken() bool { return m.Policy.GetSellerToken() }

// SellerOptional reports whether the seller headers may be sent without
// being required: sent, they are verified as for SellerToken.
func (m *Method) SellerOptional() bool {
	return m.Policy.GetSellerTokenOptional() && !m.Policy.GetSellerToken()
}

// SellerHeaders reports whether the method reads the seller headers at all
// (required or optional): the gateway forwards them for these alone.
func (m *Method) SellerHeaders() bool { return m.SellerToken() || m.SellerOptional() }

// SuccessStatus is the HTTP status of a successful answer.
func (m *Method) SuccessStatus() int {
	if s := m.Policy.GetSuccessStatus(); s != 0 {
		return int(s)
	}
	return http.StatusOK
}

// MaxBodyBytes is the route's body cap.
func (m *Method) MaxBodyBytes() int64 {
	if n := m.Policy.GetMaxBodyBytes(); n > 0 {
		return n
	}
	return DefaultMaxBodyBytes
}

// GzipBody reports whether the route accepts a gzip-compressed body
// (Content-Encoding: gzip); its inflated size is capped at
// MaxInflatedBodyBytes.
func (m *Method) GzipBody() bool { return m.Policy.GetGzipBody() }

// GatewayOwned reports whether the gateway answers the method's routes
// itself, without core: its service's (mp.options.v1.service_policy) says
// CALLERS_NONE_GATEWAY_OWNED.
func (m *Method) GatewayOwned() bool {
	if m.Desc == nil {
		return false
	}
	sp, _ := proto.GetExtension(m.Desc.Parent().Options(), optionsv1.E_ServicePolicy).(*optionsv1.ServicePolicy)
	return sp.GetCallers() == optionsv1.Callers_CALLERS_NONE_GATEWAY_OWNED
}

// Route is one HTTP binding of a method.
type Route struct {
	HTTPMethod string
	Template   string
	Method     *Method
	segments   []segment
}

type segment struct {
	literal  string
	variable string // field name when the segment is {field}
}

// Table is the policy of every routed or internal method of the platform.
type Table struct {
	methods map[string]*Method
	routes  []*Route
}

// Load builds the table from every service of the platform's packages linked
// into the binary. A method with an HTTP binding and no policy is an error:
// the gateway fails closed rather than serving an unguarded route.
func Load() (*Table, error) {
	return LoadFrom(protoregistry.GlobalFiles)
}

// LoadFrom is Load over an explicit registry (tests).
func LoadFrom(files *protoregistry.Files) (*Table, error) {
	t := &Table{methods: map[string]*Method{}}
	var errs []string
	files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if !strings.HasPrefix(string(fd.Package()), PackagePrefix) {
			return true
		}
		services := fd.Services()
		for i := 0; i < services.Len(); i++ {
			sd := services.Get(i)
			methods := sd.Methods()
			for j := 0; j < methods.Len(); j++ {
				m, err := newMethod(methods.Get(j))
				if err != nil {
					errs = append(errs, err.Error())
					continue
				}
				t.methods[m.FullMethod] = m
				t.routes = append(t.routes, m.Routes...)
			}
		}
		return true
	})
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("policy: %s", strings.Join(errs, "; "))
	}
	return t, nil
}

func newMethod(md protoreflect.MethodDescriptor) (*Method, error) {
	full := "/" + string(md.Parent().FullName()) + "/" + string(md.Name())
	m := &Method{FullMethod: full, Desc: md, PathFields: map[string]bool{}}
	opts := md.Options()
	if p, ok := proto.GetExtension(opts, optionsv1.E_Policy).(*optionsv1.Policy); ok && p != nil && proto.HasExtension(opts, optionsv1.E_Policy) {
		m.Policy = p
	}
	rule, _ := proto.GetExtension(opts, annotations.E_Http).(*annotations.HttpRule)
	if rule == nil || !proto.HasExtension(opts, annotations.E_Http) {
		if m.Policy == nil {
			// Internal methods carry no HTTP binding; they still get an
			// (empty) policy so core's interceptors treat them uniformly.
			m.Policy = &optionsv1.Policy{}
		}
		return m, nil
	}
	if m.Policy == nil {
		return nil, fmt.Errorf("%s has an HTTP binding but no (mp.options.v1.policy)", full)
	}
	rules := append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...)
	for _, r := range rules {
		verb, tmpl := ruleVerb(r)
		if verb == "" {
			return nil, fmt.Errorf("%s: unsupported HTTP rule", full)
		}
		route, err := newRoute(m, verb, tmpl)
		if err != nil {
			return nil, err
		}
		m.Routes = append(m.Routes, route)
		if r.GetBody() != "" {
			m.BodyField = r.GetBody()
		}
		if r.GetResponseBody() != "" {
			m.ResponseBody = r.GetResponseBody()
		}
	}
	if m.BodyField != "" && m.BodyField != "*" {
		if fd := md.Input().Fields().ByName(protoreflect.Name(m.BodyField)); fd != nil {
			rules, _ := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
			m.BodyOptional = !rules.GetRequired()
			m.RawBody = fd.Message() != nil && fd.Message().FullName() == httpBody
		}
	}
	return m, nil
}

func ruleVerb(r *annotations.HttpRule) (string, string) {
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return http.MethodGet, p.Get
	case *annotations.HttpRule_Post:
		return http.MethodPost, p.Post
	case *annotations.HttpRule_Put:
		return http.MethodPut, p.Put
	case *annotations.HttpRule_Delete:
		return http.MethodDelete, p.Delete
	case *annotations.HttpRule_Patch:
		return http.MethodPatch, p.Patch
	}
	return "", ""
}

// MaxSegments bounds a template's segments: Table.Match splits a path once
// into an array of this size, so a path with more segments fits no route.
const MaxSegments = 16

func newRoute(m *Method, verb, tmpl string) (*Route, error) {
	if !strings.HasPrefix(tmpl, "/") {
		return nil, fmt.Errorf("%s: template %q must start with /", m.FullMethod, tmpl)
	}
	if n := strings.Count(tmpl, "/"); n > MaxSegments {
		return nil, fmt.Errorf("%s: template %q has %d segments, more than %d", m.FullMethod, tmpl, n, MaxSegments)
	}
	r := &Route{HTTPMethod: verb, Template: tmpl, Method: m}
	for _, part := range strings.Split(tmpl[1:], "/") {
		if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
			name := part[1 : len(part)-1]
			if strings.ContainsAny(name, "=*.") {
				return nil, fmt.Errorf("%s: only single-segment variables are supported, got %q", m.FullMethod, part)
			}
			r.segments = append(r.segments, segment{variable: name})
			m.PathFields[name] = true
			continue
		}
		r.segments = append(r.segments, segment{literal: part})
	}
	return r, nil
}

// match reports whether a path, split into segs, fits the template: as
// many segments, each literal equal, each variable not empty (so a trailing
// slash or an empty variable segment never matches).
func (r *Route) match(segs []string) bool {
	if len(segs) != len(r.segments) {
		return false
	}
	for i, s := range r.segments {
		if s.variable != "" {
			if segs[i] == "" {
				return false
			}
		} else if segs[i] != s.literal {
			return false
		}
	}
	return true
}

// Path writes the template with each variable replaced by what variable
// answers for its name: a path the route matches, or the template in
// another router's syntax.
func (r *Route) Path(variable func(name string) string) string {
	var b strings.Builder
	for _, s := range r.segments {
		b.WriteByte('/')
		if s.variable != "" {
			b.WriteString(variable(s.variable))
		} else {
			b.WriteString(s.literal)
		}
	}
	return b.String()
}

// Variables names the template's variables, in path order.
func (r *Route) Variables() []string {
	var out []string
	for _, s := range r.segments {
		if s.variable != "" {
			out = append(out, s.variable)
		}
	}
	return out
}

// Method returns the policy of a gRPC method.
func (t *Table) Method(fullMethod string) (*Method, bool) {
	m, ok := t.methods[fullMethod]
	return m, ok
}

// Methods lists every method in the table.
func (t *Table) Methods() []*Method {
	out := make([]*Method, 0, len(t.methods))
	for _, m := range t.methods {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].FullMethod < out[j].FullMethod })
	return out
}

// Routes lists every HTTP binding.
func (t *Table) Routes() []*Route { return t.routes }

// Matched is Table.Match's answer: the route, or why there is none, and
// the path's segments the route matched, which Bind reads the variables
// from (the path is split once, by Match).
type Matched struct {
	// Route is the route found; nil unless Status is http.StatusOK.
	Route *Route
	// Status is http.StatusOK, http.StatusNotFound (no template fits the
	// path) or http.StatusMethodNotAllowed (a template fits, not with this
	// verb: Allowed lists the verbs allowed on the path).
	Status  int
	Allowed []string

	segs [MaxSegments]string
	n    int
}

// Bind appends to dst the values of the matched route's variables, in the
// order Variables names them.
func (m *Matched) Bind(dst []string) []string {
	if m.Route == nil {
		return dst
	}
	for i, s := range m.Route.segments {
		if s.variable != "" {
			dst = append(dst, m.segs[i])
		}
	}
	return dst
}

// split cuts path (leading slash) into m's segments; false when it has more
// than MaxSegments, which no template has.
func (m *Matched) split(path string) bool {
	rest := path[1:]
	for m.n = 0; m.n < MaxSegments; m.n++ {
		j := strings.IndexByte(rest, '/')
		if j < 0 {
			m.segs[m.n] = rest
			m.n++
			return true
		}
		m.segs[m.n], rest = rest[:j], rest[j+1:]
	}
	return false
}

// Match finds the route for an HTTP request (Matched.Status says whether
// and why not).
//
// Literal segments win over variables: among the templates that fit, only
// the most specific ones (a literal at the first position where they differ)
// own the path, so /orders/bulk-cancel is never an order id, whatever the
// verb.
//
// The console's root, ConsolePrefix ("/console/"), is the route of
// "/console": an HTTP rule's template cannot end in a slash.
func (t *Table) Match(httpMethod, path string) Matched {
	m := Matched{Status: http.StatusNotFound}
	if path == "" || path[0] != '/' {
		return m
	}
	if path == ConsolePrefix {
		path = ConsolePrefix[:len(ConsolePrefix)-1]
	}
	if !m.split(path) {
		return m
	}
	segs := m.segs[:m.n]
	var owners []*Route
	for _, r := range t.routes {
		if !r.match(segs) {
			continue
		}
		switch {
		case len(owners) == 0:
			owners = append(owners, r)
		case r.moreSpecificThan(owners[0]):
			owners = append(owners[:0], r)
		case !owners[0].moreSpecificThan(r):
			owners = append(owners, r)
		}
	}
	if len(owners) == 0 {
		return m
	}
	allowed := make([]string, 0, len(owners))
	for _, r := range owners {
		if r.HTTPMethod == httpMethod {
			m.Route, m.Status = r, http.StatusOK
			return m
		}
		allowed = append(allowed, r.HTTPMethod)
	}
	m.Status, m.Allowed = http.StatusMethodNotAllowed, allowed
	return m
}

// moreSpecificThan compares two templates that fit the same path: at the
// first segment where one has a literal and the other a variable, the
// literal wins.
func (r *Route) moreSpecificThan(o *Route) bool {
	for i := range min(len(r.segments), len(o.segments)) {
		rl, ol := r.segments[i].variable == "", o.segments[i].variable == ""
		if rl != ol {
			return rl
		}
	}
	return false
}
