package wirejson

import (
	"net/url"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// ParseQuery fills m's top-level fields from query parameters named by their
// wire (JSON) names. skip holds fields the query may not set (those bound
// from the path or the body). A parameter the request does not define, or a
// value of the wrong type, is a VALIDATION_ERROR (the query fails the
// schema); a single-valued parameter sent twice, or a string value that is
// not text (NUL or invalid UTF-8, which percent-encoding can carry and
// PostgreSQL cannot store), is a BAD_REQUEST.
func ParseQuery(m proto.Message, values url.Values, skip map[string]bool) error {
	msg := m.ProtoReflect()
	p := planFor(msg.Descriptor())
	for key, vals := range values {
		fp, ok := p.byName[key]
		if !ok || skip[string(fp.fd.Name())] {
			return apierr.Newf(apierr.ValidationError, "%s: unknown query parameter", apierr.Truncate(key, maxPathBytes))
		}
		fd := fp.fd
		if fd.IsMap() || (fd.Kind() == protoreflect.MessageKind && planFor(fd.Message()).wellKnown != wkTimestamp) {
			return apierr.Newf(apierr.ValidationError, "%s: cannot be sent in the query", key)
		}
		if fd.IsList() {
			l := msg.Mutable(fd).List()
			for _, s := range vals {
				v, err := queryScalar(fd, s, key)
				if err != nil {
					return err
				}
				l.Append(v)
			}
			continue
		}
		if len(vals) != 1 {
			return apierr.Newf(apierr.BadRequest, "%s: sent %d times; send it once", key, len(vals))
		}
		if fd.Kind() == protoreflect.MessageKind {
			ts, err := ParseTime(vals[0])
			if err != nil {
				return apierr.Newf(apierr.ValidationError, "%s: must be an ISO-8601 date-time such as 2026-01-31T08:00:00Z", key)
			}
			tm := msg.Mutable(fd).Message()
			fields := tm.Descriptor().Fields()
			tm.Set(fields.ByNumber(1), protoreflect.ValueOfInt64(ts.Unix()))
			tm.Set(fields.ByNumber(2), protoreflect.ValueOfInt32(int32(ts.Nanosecond())))
			continue
		}
		v, err := queryScalar(fd, vals[0], key)
		if err != nil {
			return err
		}
		msg.Set(fd, v)
	}
	return nil
}

func queryScalar(fd protoreflect.FieldDescriptor, s, path string) (protoreflect.Value, error) {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if problem := CheckText(s); problem != "" {
			return protoreflect.Value{}, apierr.New(apierr.BadRequest, path+": "+problem)
		}
		return protoreflect.ValueOfString(s), nil
	case protoreflect.BoolKind:
		switch s {
		case "true":
			return protoreflect.ValueOfBool(true), nil
		case "false":
			return protoreflect.ValueOfBool(false), nil
		}
		return protoreflect.Value{}, fieldErr(path, "must be true or false")
	case protoreflect.EnumKind:
		plan := enumPlanFor(fd.Enum())
		if n, ok := plan.fromWire[s]; ok {
			return protoreflect.ValueOfEnum(n), nil
		}
		return protoreflect.Value{}, fieldErr(path, "must be one of: "+EnumChoices(fd))
	case protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return protoreflect.Value{}, fieldErr(path, "cannot be sent in the query")
	}
	return parseNumber(fd.Kind(), s, path)
}
