package wirejson

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// MaxItems is the protovalidate repeated.max_items rule of a list field, or
// 0 when it has none. The decoder and core's validation read the bound from
// the rule itself, so the proto stays its single source.
func MaxItems(fd protoreflect.FieldDescriptor) int {
	if !fd.IsList() {
		return 0
	}
	rules, _ := proto.GetExtension(fd.Options(), validate.E_Field).(*validate.FieldRules)
	n := rules.GetRepeated().GetMaxItems()
	if n == 0 || n > uint64(maxListBound) {
		return 0
	}
	return int(n)
}

// maxListBound keeps MaxItems within int on every platform; a larger
// rule is no bound at all in practice.
const maxListBound = 1 << 30

// TooManyItems is the message for a list longer than its max_items rule.
func TooManyItems(n int) string {
	return "must contain at most " + strconv.Itoa(n) + " items"
}

// CheckText reports what is wrong with s as stored text, or "" when it is
// fine. PostgreSQL's text and jsonb hold neither NUL nor invalid UTF-8
// (SQLSTATE 22021, 22P05): such a value is refused at the edge with a
// message naming the field rather than failing in the database.
func CheckText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		return "must not contain the NUL character (\\u0000)"
	}
	if !utf8.ValidString(s) {
		return "must be valid UTF-8"
	}
	return ""
}
