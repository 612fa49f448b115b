package gateway

import (
	"errors"
	"net/http"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mallplatform/partnerapi/internal/policy"
)

// applyEntityTag sends the response's entity tag field as a strong ETag and
// leaves it out of the body; when the request's If-None-Match names the tag
// the answer becomes 304 Not Modified with no body (RFC 9110 §13.1.2).
func applyEntityTag(w http.ResponseWriter, p policy.FieldPath, m protoreflect.Message, ifNoneMatch string) error {
	parent, fd, ok := resolve(p, m)
	if !ok {
		return nil
	}
	v := parent.Get(fd).String()
	parent.Clear(fd)
	if v == "" {
		return nil
	}
	if !validETagValue(v) {
		return errors.New("gateway: core's entity tag is not a valid opaque tag")
	}
	tag := `"` + v + `"`
	w.Header().Set("ETag", tag)
	if ifNoneMatch != "" && noneMatchNames(ifNoneMatch, tag) {
		nm, ok := w.(interface{ notModified() })
		if !ok {
			return errors.New("gateway: a conditional answer outside the request path")
		}
		nm.notModified()
	}
	return nil
}

// noneMatchNames reports whether an If-None-Match list names tag: "*", or
// the tag itself compared weakly (a W/ prefix is ignored), as the RFC asks
// of If-None-Match.
func noneMatchNames(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}

// validETagValue reports whether v may sit between an ETag's quotes
// (etagc: %x21 / %x23-7E).
func validETagValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x21 || c == '"' || c > 0x7e {
			return false
		}
	}
	return true
}
