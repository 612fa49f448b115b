package wirejson

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// maxDepth bounds nesting so a hostile body cannot exhaust the stack.
const maxDepth = 64

// Unmarshal reads wire JSON into m. A body that is not JSON at all is an
// INVALID_JSON error; JSON that does not fit m (unknown or duplicate field,
// wrong type, bad enum value) is a VALIDATION_ERROR naming the field path.
// Two rules are applied while reading, because they bound the work a body
// can cause and what reaches the database: a list longer than its
// protovalidate max_items stops the decoding there, and a string holding
// NUL (which PostgreSQL cannot store) is refused. Invalid UTF-8 cannot get
// through: encoding/json reads it as U+FFFD. Other range and length rules
// are left to protovalidate. JSON null means "not sent".
func Unmarshal(data []byte, m proto.Message) error {
	if !json.Valid(data) {
		return apierr.New(apierr.InvalidJSON, "request body is not valid JSON")
	}
	d := decoder{toks: tokens{data: data}}
	tok, err := d.token()
	if err != nil {
		return err
	}
	if err := d.message(m.ProtoReflect(), tok, "", 0); err != nil {
		return err
	}
	if !d.toks.atEnd() {
		return apierr.New(apierr.InvalidJSON, "request body has data after the JSON value")
	}
	return nil
}

type decoder struct {
	toks tokens
}

func (d *decoder) token() (json.Token, error) {
	tok, ok := d.toks.next()
	if !ok {
		return nil, apierr.New(apierr.InvalidJSON, "request body is not valid JSON")
	}
	return tok, nil
}

// maxPathBytes bounds the path an error names: a path holds object keys as
// the client sent them, and the error message must not grow with them.
const maxPathBytes = 256

func fieldErr(path, msg string) error {
	if path == "" {
		path = "body"
	}
	return apierr.New(apierr.ValidationError, apierr.Truncate(path, maxPathBytes)+": "+msg)
}

// text refuses strings that cannot be stored (see CheckText). Decoded JSON
// strings are always valid UTF-8, so only NUL can be found here.
func text(s, path string) error {
	if problem := CheckText(s); problem != "" {
		return fieldErr(path, problem)
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// message reads a JSON object (or, for json_array and well-known types, the
// value they travel as) whose first token is tok.
func (d *decoder) message(m protoreflect.Message, tok json.Token, path string, depth int) error {
	if depth > maxDepth {
		return fieldErr(path, "nested too deeply")
	}
	p := planFor(m.Descriptor())
	switch p.wellKnown {
	case wkTimestamp:
		return d.timestamp(m, tok, path)
	case wkValue:
		v, err := d.structValue(tok, path, depth)
		if err != nil {
			return err
		}
		proto.Merge(m.Interface(), v)
		return nil
	case wkStruct, wkListValue:
		v, err := d.structValue(tok, path, depth)
		if err != nil {
			return err
		}
		switch k := v.GetKind().(type) {
		case *structpb.Value_StructValue:
			if p.wellKnown == wkStruct {
				proto.Merge(m.Interface(), k.StructValue)
				return nil
			}
		case *structpb.Value_ListValue:
			if p.wellKnown == wkListValue {
				proto.Merge(m.Interface(), k.ListValue)
				return nil
			}
		}
		return fieldErr(path, "has the wrong type")
	}
	if p.jsonArray != nil {
		return d.list(m, p.jsonArray, tok, path, depth)
	}
	if tok != json.Delim('{') {
		return fieldErr(path, "must be a JSON object")
	}
	// Each key names one field (byName holds one name per field), so the
	// fields seen are kept by their index: no map per object read.
	var seen fieldSet
	for d.toks.more() {
		key, ok := d.toks.key()
		if !ok {
			return apierr.New(apierr.InvalidJSON, "request body is not valid JSON")
		}
		fp, ok := p.byName[string(key)]
		if !ok {
			return fieldErr(join(path, string(key)), "unknown field")
		}
		if !seen.add(fp.fd.Index()) {
			return fieldErr(join(path, fp.name), "duplicate field")
		}
		if fp.kind == protoreflect.StringKind && !fp.fd.IsList() && d.toks.atString() {
			// The commonest value: read straight into the field.
			v, err := d.stringValue(path, fp.name, -1)
			if err != nil {
				return err
			}
			m.Set(fp.fd, v)
			continue
		}
		valTok, err := d.token()
		if err != nil {
			return err
		}
		if valTok == nil {
			continue // null: not sent
		}
		if fp.singularScalar {
			// The field's path is built only for an error.
			v, problem := scalarValue(fp.fd, valTok)
			if problem != "" {
				return fieldErr(join(path, fp.name), problem)
			}
			m.Set(fp.fd, v)
			continue
		}
		if err := d.field(m, fp, valTok, join(path, fp.name), depth); err != nil {
			return err
		}
	}
	_, err := d.token() // '}'
	return err
}

// stringValue reads the string at the reader's position as a string field's
// value: what scalar does with a string token, without boxing the string in
// a json.Token. Its path (path.name, or path[i] when i >= 0) is built only for
// an error.
func (d *decoder) stringValue(path, name string, i int) (protoreflect.Value, error) {
	b, ok := d.toks.strBytes()
	if !ok {
		return protoreflect.Value{}, apierr.New(apierr.InvalidJSON, "request body is not valid JSON")
	}
	s := string(b)
	if problem := CheckText(s); problem != "" {
		if i >= 0 {
			return protoreflect.Value{}, fieldErr(index(path, i), problem)
		}
		return protoreflect.Value{}, fieldErr(join(path, name), problem)
	}
	return protoreflect.ValueOfString(s), nil
}

func (d *decoder) field(m protoreflect.Message, fp *fieldPlan, tok json.Token, path string, depth int) error {
	fd := fp.fd
	switch {
	case fp.rawJSON:
		return fieldErr(path, "is not accepted in a request")
	case fp.objectEntries:
		return d.entries(m, fp, tok, path)
	case fd.IsList():
		return d.list(m, fp, tok, path, depth)
	case fd.IsMap():
		return d.mapField(m, fd, tok, path, depth)
	case fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind:
		return d.message(m.Mutable(fd).Message(), tok, path, depth+1)
	}
	v, err := scalar(fd, tok, path)
	if err != nil {
		return err
	}
	m.Set(fd, v)
	return nil
}

func (d *decoder) list(m protoreflect.Message, fp *fieldPlan, tok json.Token, path string, depth int) error {
	if tok != json.Delim('[') {
		return fieldErr(path, "must be a JSON array")
	}
	if fp.stringList {
		if f, direct := fp.goStrings(m); direct {
			return d.goStringList(f.Addr().Interface().(*[]string), fp, path)
		}
	}
	fd := fp.fd
	l := m.Mutable(fd).List()
	for i := 0; d.toks.more(); i++ {
		if fp.maxItems > 0 && i == fp.maxItems {
			return fieldErr(path, TooManyItems(fp.maxItems))
		}
		if fd.Kind() == protoreflect.StringKind && d.toks.atString() {
			v, err := d.stringValue(path, "", i)
			if err != nil {
				return err
			}
			l.Append(v)
			continue
		}
		itemTok, err := d.token()
		if err != nil {
			return err
		}
		if fd.Kind() == protoreflect.MessageKind {
			itemPath := index(path, i)
			if itemTok == nil {
				return fieldErr(itemPath, "must not be null")
			}
			item := l.NewElement()
			if err := d.message(item.Message(), itemTok, itemPath, depth+1); err != nil {
				return err
			}
			l.Append(item)
			continue
		}
		// The item's path is built only for an error.
		v, problem := scalarValue(fd, itemTok)
		if problem != "" {
			return fieldErr(index(path, i), problem)
		}
		l.Append(v)
	}
	_, err := d.token() // ']'
	return err
}

// goStringList is list for a repeated string field of a generated message,
// appending to its []string: protoreflect's list would box each string on
// its way in.
func (d *decoder) goStringList(out *[]string, fp *fieldPlan, path string) error {
	for i := 0; d.toks.more(); i++ {
		if fp.maxItems > 0 && i == fp.maxItems {
			return fieldErr(path, TooManyItems(fp.maxItems))
		}
		if d.toks.atString() {
			v, err := d.stringValue(path, "", i)
			if err != nil {
				return err
			}
			*out = append(*out, v.String())
			continue
		}
		itemTok, err := d.token()
		if err != nil {
			return err
		}
		v, problem := scalarValue(fp.fd, itemTok)
		if problem != "" {
			return fieldErr(index(path, i), problem)
		}
		*out = append(*out, v.String())
	}
	_, err := d.token() // ']'
	return err
}

// entries reads a JSON object into a list of {key, value} messages, keeping
// member order (a variant's options: their order defines options_order).
func (d *decoder) entries(m protoreflect.Message, fp *fieldPlan, tok json.Token, path string) error {
	if tok != json.Delim('{') {
		return fieldErr(path, "must be a JSON object of strings")
	}
	l := m.Mutable(fp.fd).List()
	seen := map[string]bool{}
	for d.toks.more() {
		if fp.maxItems > 0 && l.Len() == fp.maxItems {
			return fieldErr(path, "must contain at most "+strconv.Itoa(fp.maxItems)+" entries")
		}
		keyTok, err := d.token()
		if err != nil {
			return err
		}
		key, _ := keyTok.(string)
		if err := text(key, join(path, key)); err != nil {
			return err
		}
		if seen[key] {
			return fieldErr(join(path, key), "duplicate key")
		}
		seen[key] = true
		valTok, err := d.token()
		if err != nil {
			return err
		}
		val, ok := valTok.(string)
		if !ok {
			return fieldErr(join(path, key), "must be a string")
		}
		if err := text(val, join(path, key)); err != nil {
			return err
		}
		e := l.NewElement()
		fields := e.Message().Descriptor().Fields()
		e.Message().Set(fields.Get(0), protoreflect.ValueOfString(key))
		e.Message().Set(fields.Get(1), protoreflect.ValueOfString(val))
		l.Append(e)
	}
	_, err := d.token()
	return err
}

func (d *decoder) mapField(m protoreflect.Message, fd protoreflect.FieldDescriptor, tok json.Token, path string, depth int) error {
	if tok != json.Delim('{') {
		return fieldErr(path, "must be a JSON object")
	}
	if fd.MapKey().Kind() != protoreflect.StringKind {
		return fieldErr(path, "is not supported")
	}
	mp := m.Mutable(fd).Map()
	for d.toks.more() {
		keyTok, err := d.token()
		if err != nil {
			return err
		}
		key, _ := keyTok.(string)
		if err := text(key, join(path, key)); err != nil {
			return err
		}
		k := protoreflect.ValueOfString(key).MapKey()
		if mp.Has(k) {
			return fieldErr(join(path, key), "duplicate key")
		}
		valTok, err := d.token()
		if err != nil {
			return err
		}
		if valTok == nil {
			return fieldErr(join(path, key), "must not be null")
		}
		if fd.MapValue().Kind() == protoreflect.MessageKind {
			v := mp.NewValue()
			if err := d.message(v.Message(), valTok, join(path, key), depth+1); err != nil {
				return err
			}
			mp.Set(k, v)
			continue
		}
		v, err := scalar(fd.MapValue(), valTok, join(path, key))
		if err != nil {
			return err
		}
		mp.Set(k, v)
	}
	_, err := d.token()
	return err
}

func (d *decoder) timestamp(m protoreflect.Message, tok json.Token, path string) error {
	s, ok := tok.(string)
	if !ok {
		return fieldErr(path, "must be an ISO-8601 date-time string")
	}
	ts, err := ParseTime(s)
	if err != nil {
		return fieldErr(path, "must be an ISO-8601 date-time such as 2026-01-31T08:00:00Z")
	}
	proto.Merge(m.Interface(), timestamppb.New(ts))
	return nil
}

// ParseTime reads an ISO-8601 date-time with a zone (RFC 3339).
func ParseTime(s string) (time.Time, error) {
	return time.Parse(time.RFC3339Nano, s)
}

func (d *decoder) structValue(tok json.Token, path string, depth int) (*structpb.Value, error) {
	if depth > maxDepth {
		return nil, fieldErr(path, "nested too deeply")
	}
	switch t := tok.(type) {
	case nil:
		return structpb.NewNullValue(), nil
	case bool:
		return structpb.NewBoolValue(t), nil
	case string:
		if err := text(t, path); err != nil {
			return nil, err
		}
		return structpb.NewStringValue(t), nil
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fieldErr(path, "number is out of range")
		}
		return structpb.NewNumberValue(f), nil
	case json.Delim:
		switch t {
		case '{':
			s := &structpb.Struct{Fields: map[string]*structpb.Value{}}
			for d.toks.more() {
				keyTok, err := d.token()
				if err != nil {
					return nil, err
				}
				key, _ := keyTok.(string)
				if err := text(key, join(path, key)); err != nil {
					return nil, err
				}
				if _, dup := s.Fields[key]; dup {
					return nil, fieldErr(join(path, key), "duplicate key")
				}
				valTok, err := d.token()
				if err != nil {
					return nil, err
				}
				v, err := d.structValue(valTok, join(path, key), depth+1)
				if err != nil {
					return nil, err
				}
				s.Fields[key] = v
			}
			if _, err := d.token(); err != nil {
				return nil, err
			}
			return structpb.NewStructValue(s), nil
		case '[':
			l := &structpb.ListValue{}
			for i := 0; d.toks.more(); i++ {
				itemTok, err := d.token()
				if err != nil {
					return nil, err
				}
				v, err := d.structValue(itemTok, index(path, i), depth+1)
				if err != nil {
					return nil, err
				}
				l.Values = append(l.Values, v)
			}
			if _, err := d.token(); err != nil {
				return nil, err
			}
			return structpb.NewListValue(l), nil
		}
	}
	return nil, fieldErr(path, "is not a JSON value")
}

func scalar(fd protoreflect.FieldDescriptor, tok json.Token, path string) (protoreflect.Value, error) {
	v, problem := scalarValue(fd, tok)
	if problem != "" {
		return protoreflect.Value{}, fieldErr(path, problem)
	}
	return v, nil
}

// scalarValue reads tok as a value of fd's scalar kind, or says what is
// wrong with it; the caller names the path only when something is, so a
// body of valid numbers builds no path strings.
func scalarValue(fd protoreflect.FieldDescriptor, tok json.Token) (protoreflect.Value, string) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		if b, ok := tok.(bool); ok {
			return protoreflect.ValueOfBool(b), ""
		}
		return protoreflect.Value{}, "must be a boolean"
	case protoreflect.StringKind:
		if s, ok := tok.(string); ok {
			if problem := CheckText(s); problem != "" {
				return protoreflect.Value{}, problem
			}
			return protoreflect.ValueOfString(s), ""
		}
		return protoreflect.Value{}, "must be a string"
	case protoreflect.BytesKind:
		s, ok := tok.(string)
		if !ok {
			return protoreflect.Value{}, "must be a base64 string"
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return protoreflect.Value{}, "must be a base64 string"
		}
		return protoreflect.ValueOfBytes(b), ""
	case protoreflect.EnumKind:
		s, ok := tok.(string)
		plan := enumPlanFor(fd.Enum())
		if ok {
			if n, known := plan.fromWire[s]; known {
				return protoreflect.ValueOfEnum(n), ""
			}
		}
		return protoreflect.Value{}, "must be one of: " + EnumChoices(fd)
	}
	num, ok := tok.(json.Number)
	if !ok {
		return protoreflect.Value{}, "must be a number"
	}
	return numberValue(fd.Kind(), string(num))
}

// parseNumber reads a JSON number (or a query value) into a numeric kind.
// Integer kinds accept integral values only (2 and 2.0, not 2.5).
func parseNumber(kind protoreflect.Kind, s, path string) (protoreflect.Value, error) {
	v, problem := numberValue(kind, s)
	if problem != "" {
		return protoreflect.Value{}, fieldErr(path, problem)
	}
	return v, nil
}

// numberValue is parseNumber that says what is wrong instead of naming a
// path.
func numberValue(kind protoreflect.Kind, s string) (protoreflect.Value, string) {
	switch kind {
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		bits := 64
		if kind == protoreflect.FloatKind {
			bits = 32
		}
		f, err := strconv.ParseFloat(s, bits)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return protoreflect.Value{}, "must be a finite number"
		}
		if bits == 32 {
			return protoreflect.ValueOfFloat32(float32(f)), ""
		}
		return protoreflect.ValueOfFloat64(f), ""
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, err := parseInt(s, math.MinInt32, math.MaxInt32)
		if err != nil {
			return protoreflect.Value{}, err.Error()
		}
		return protoreflect.ValueOfInt32(int32(n)), ""
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := parseInt(s, math.MinInt64, math.MaxInt64)
		if err != nil {
			return protoreflect.Value{}, err.Error()
		}
		return protoreflect.ValueOfInt64(n), ""
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, err := parseInt(s, 0, math.MaxUint32)
		if err != nil {
			return protoreflect.Value{}, err.Error()
		}
		return protoreflect.ValueOfUint32(uint32(n)), ""
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := parseInt(s, 0, math.MaxInt64)
		if err != nil {
			return protoreflect.Value{}, err.Error()
		}
		return protoreflect.ValueOfUint64(uint64(n)), ""
	}
	return protoreflect.Value{}, "has an unsupported type"
}

var errNotInteger = errors.New("must be an integer")

func parseInt(s string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) {
			return 0, errNotInteger
		}
		if f < float64(lo) || f > float64(hi) {
			return 0, errors.New("is out of range")
		}
		n = int64(f)
	}
	if n < lo || n > hi {
		return 0, errors.New("is out of range")
	}
	return n, nil
}

// fieldSet is a set of field indexes: a bit mask for the first 64, which
// covers every message of the API, and a map past them.
type fieldSet struct {
	low  uint64
	high map[int]bool
}

// add adds i and reports whether it was absent.
func (s *fieldSet) add(i int) bool {
	if i < 64 {
		bit := uint64(1) << uint(i)
		if s.low&bit != 0 {
			return false
		}
		s.low |= bit
		return true
	}
	if s.high[i] {
		return false
	}
	if s.high == nil {
		s.high = map[int]bool{}
	}
	s.high[i] = true
	return true
}
