package policy

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
)

// Unsigned reports whether the method's routes are served without the
// app's signature: AUTH_NONE, AUTH_SESSION or AUTH_CONSOLE.
func (m *Method) Unsigned() bool {
	a := m.Policy.GetAuth()
	return a == optionsv1.Auth_AUTH_NONE || a == optionsv1.Auth_AUTH_SESSION || a == optionsv1.Auth_AUTH_CONSOLE
}

// The seller sign-in limits the gateway applies to the methods
// SignInLimited names: every attempt counts, whatever core answers, in a
// rolling window, per client address and per username as typed (known or
// not); a refused attempt is not recorded.
const (
	SignInWindow      = 15 * time.Minute
	SignInPerAddress  = 10
	SignInPerUsername = 5
)

// ConsentSessionTTL is how long a consent session lives: core ends it then,
// and the gateway's session cookie expires with it.
const ConsentSessionTTL = 10 * time.Minute

// NormalizeUsername is a seller's username as core stores and looks it up
// and as the sign-in limit counts it: trimmed and lowercased.
func NormalizeUsername(u string) string { return strings.ToLower(strings.TrimSpace(u)) }

// SignInLimited reports whether the sign-in limits apply to a method: the
// consent pages' sign-in, which checks a seller's password, and the
// developer console's, which checks a person's.
func SignInLimited(fullMethod string) bool { return SignInIdentity(fullMethod) != "" }

// SignInIdentity is the request body member a sign-in method names its
// account with, counted by the per-username limit ("username" for a
// seller, "email" for a console user), or "" for a method the sign-in
// limits do not apply to.
func SignInIdentity(fullMethod string) string {
	switch fullMethod {
	case authv1.AuthorizationService_VerifySeller_FullMethodName:
		return "username"
	case developerv1.DeveloperService_SignIn_FullMethodName:
		return "email"
	}
	return ""
}

// FieldPath leads from a message to one of its fields through singular
// message fields.
type FieldPath []protoreflect.FieldDescriptor

// ResponseFields are the fields of a response message the gateway sends as
// HTTP rather than JSON: the location ((mp.options.v1.field).location, at
// most one: the Location header of a redirect) and the session cookies
// ((mp.options.v1.field).session_cookie) and the entity tag
// ((mp.options.v1.field).entity_tag, at most one: the ETag header, and the
// 304 answer to a matching If-None-Match).
type ResponseFields struct {
	Location  FieldPath
	Cookies   []FieldPath
	EntityTag FieldPath
}

// FindResponseFields looks for such fields in md and the singular messages
// it holds; it returns nil when there are none, and an error when a marked
// field is not a singular string or two fields are marked location.
func FindResponseFields(md protoreflect.MessageDescriptor) (*ResponseFields, error) {
	rf := &ResponseFields{}
	if err := rf.collect(md, nil, map[protoreflect.FullName]bool{}); err != nil {
		return nil, fmt.Errorf("policy: response %s: %w", md.FullName(), err)
	}
	if rf.Location == nil && rf.Cookies == nil && rf.EntityTag == nil {
		return nil, nil
	}
	return rf, nil
}

func (rf *ResponseFields) collect(md protoreflect.MessageDescriptor, path FieldPath, seen map[protoreflect.FullName]bool) error {
	if seen[md.FullName()] {
		return nil
	}
	seen[md.FullName()] = true
	defer delete(seen, md.FullName())
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		here := append(append(FieldPath(nil), path...), fd)
		opt, _ := proto.GetExtension(fd.Options(), optionsv1.E_Field).(*optionsv1.Field)
		if opt.GetLocation() || opt.GetSessionCookie() || opt.GetEntityTag() {
			if fd.Kind() != protoreflect.StringKind || fd.IsList() || fd.IsMap() {
				return fmt.Errorf("field %s is marked location, session_cookie or entity_tag but is not a singular string", fd.FullName())
			}
			if opt.GetEntityTag() {
				if rf.EntityTag != nil {
					return fmt.Errorf("fields %s and %s are both marked entity_tag", rf.EntityTag[len(rf.EntityTag)-1].FullName(), fd.FullName())
				}
				rf.EntityTag = here
			}
			if opt.GetLocation() {
				if rf.Location != nil {
					return fmt.Errorf("fields %s and %s are both marked location", rf.Location[len(rf.Location)-1].FullName(), fd.FullName())
				}
				rf.Location = here
			}
			if opt.GetSessionCookie() {
				rf.Cookies = append(rf.Cookies, here)
			}
			continue
		}
		if fd.Kind() == protoreflect.MessageKind && !fd.IsList() && !fd.IsMap() {
			if err := rf.collect(fd.Message(), here, seen); err != nil {
				return err
			}
		}
	}
	return nil
}
