package wirejson

import (
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TimeLayout is how timestamps travel: ISO-8601 in UTC with milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Marshal renders m as wire JSON.
func Marshal(m proto.Message) ([]byte, error) {
	return AppendMessage(make([]byte, 0, 512), m)
}

// AppendMessage appends m's wire JSON to b.
func AppendMessage(b []byte, m proto.Message) ([]byte, error) {
	return appendMessage(b, m.ProtoReflect())
}

// AppendFields appends m's fields without the surrounding braces (the
// envelope writer embeds them next to "success").
func AppendFields(b []byte, m proto.Message) ([]byte, bool, error) {
	return appendFields(b, m.ProtoReflect(), false)
}

func appendMessage(b []byte, m protoreflect.Message) ([]byte, error) {
	return appendPlanned(b, planFor(m.Descriptor()), m)
}

// appendPlanned appends m, whose plan is p.
func appendPlanned(b []byte, p *messagePlan, m protoreflect.Message) ([]byte, error) {
	switch p.wellKnown {
	case wkTimestamp:
		return appendTimestamp(b, m), nil
	case wkValue:
		return appendValue(b, m)
	case wkStruct:
		return appendStruct(b, m)
	case wkListValue:
		return appendListValue(b, m)
	}
	if p.jsonArray != nil {
		return appendList(b, p.jsonArray, m.Get(p.jsonArray.fd).List())
	}
	b = append(b, '{')
	b, _, err := appendPlannedFields(b, p, m, false)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func appendFields(b []byte, m protoreflect.Message, wroteAny bool) ([]byte, bool, error) {
	return appendPlannedFields(b, planFor(m.Descriptor()), m, wroteAny)
}

func appendPlannedFields(b []byte, p *messagePlan, m protoreflect.Message, wroteAny bool) ([]byte, bool, error) {
	var err error
	for _, fp := range p.fields {
		fd := fp.fd
		// A repeated string field of a generated message is read from its
		// []string; any other list (dynamicpb's too) through protoreflect.
		var strs reflect.Value
		direct := false
		if fp.stringList {
			strs, direct = fp.goStrings(m)
		}
		switch {
		case direct:
			if strs.Len() == 0 && fp.presence == presenceOmitEmpty {
				continue
			}
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			b = appendGoStrings(b, strs)
		case fd.IsList():
			l := m.Get(fd).List()
			if l.Len() == 0 && fp.presence == presenceOmitEmpty {
				continue
			}
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			switch {
			case fp.rawJSON:
				b = appendRawList(b, l)
			case fp.objectEntries:
				b, err = appendEntries(b, l)
			default:
				b, err = appendList(b, fp, l)
			}
		case fd.IsMap():
			mp := m.Get(fd).Map()
			if mp.Len() == 0 && fp.presence == presenceOmitEmpty {
				continue
			}
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			b, err = appendMap(b, fp.mapValue, mp)
		case fp.rawJSON:
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			b = appendRaw(b, m.Get(fd).Bytes())
		default:
			if fp.tracksPresence && !m.Has(fd) {
				b = appendAbsent(b, fp, &wroteAny)
				continue
			}
			b = comma(b, &wroteAny)
			b = append(b, fp.key...)
			b, err = appendSingular(b, fp, m.Get(fd))
		}
		if err != nil {
			return nil, false, err
		}
	}
	return b, wroteAny, nil
}

// appendAbsent writes a field whose presence is tracked and that is not
// set as its presence says: null, or nothing.
func appendAbsent(b []byte, fp *fieldPlan, wroteAny *bool) []byte {
	if fp.presence != presenceNull {
		return b
	}
	b = comma(b, wroteAny)
	b = append(b, fp.key...)
	return append(b, "null"...)
}

func comma(b []byte, wroteAny *bool) []byte {
	if *wroteAny {
		b = append(b, ',')
	}
	*wroteAny = true
	return b
}

func appendList(b []byte, fp *fieldPlan, l protoreflect.List) ([]byte, error) {
	b = append(b, '[')
	var err error
	for i := 0; i < l.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendSingular(b, fp, l.Get(i)); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendRaw writes JSON the platform rendered as it is (null when empty).
func appendRaw(b, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// appendRawList writes a list of platform-rendered JSON values as an array.
func appendRawList(b []byte, l protoreflect.List) []byte {
	b = append(b, '[')
	for i := 0; i < l.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRaw(b, l.Get(i).Bytes())
	}
	return append(b, ']')
}

// appendEntries writes a list of {key, value} messages as one JSON object in
// list order.
func appendEntries(b []byte, l protoreflect.List) ([]byte, error) {
	b = append(b, '{')
	for i := 0; i < l.Len(); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		e := l.Get(i).Message()
		fields := e.Descriptor().Fields()
		b = appendString(b, e.Get(fields.Get(0)).String())
		b = append(b, ':')
		b = appendString(b, e.Get(fields.Get(1)).String())
	}
	return append(b, '}'), nil
}

func appendMap(b []byte, value *fieldPlan, mp protoreflect.Map) ([]byte, error) {
	keys := make([]protoreflect.MapKey, 0, mp.Len())
	mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k.String())
		b = append(b, ':')
		if b, err = appendSingular(b, value, mp.Get(k)); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendSingular appends one value of fp's kind.
func appendSingular(b []byte, fp *fieldPlan, v protoreflect.Value) ([]byte, error) {
	switch fp.kind {
	case protoreflect.BoolKind:
		return strconv.AppendBool(b, v.Bool()), nil
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return appendFloat(b, v.Float())
	case protoreflect.StringKind:
		return appendString(b, v.String()), nil
	case protoreflect.BytesKind:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v.Bytes())
		return append(b, '"'), nil
	case protoreflect.EnumKind:
		wire, ok := fp.enum.toWire[v.Enum()]
		if !ok {
			return append(b, "null"...), nil
		}
		return appendString(b, wire), nil
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return appendPlanned(b, fp.message(), v.Message())
	}
	return nil, fmt.Errorf("wirejson: unsupported kind %v", fp.kind)
}

func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("wirejson: %v is not representable in JSON", f)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	return strconv.AppendFloat(b, f, format, -1, 64), nil
}

func appendTimestamp(b []byte, m protoreflect.Message) []byte {
	fields := m.Descriptor().Fields()
	secs := m.Get(fields.ByNumber(1)).Int()
	nanos := m.Get(fields.ByNumber(2)).Int()
	return appendInstant(b, secs, nanos)
}

// appendInstant writes a timestamp's seconds and nanoseconds as TimeLayout
// in UTC, quoted. Years 1-9999 (every valid google.protobuf.Timestamp) are
// written digit by digit; time.AppendFormat, which interprets the layout on
// every call, writes the rest.
func appendInstant(b []byte, secs, nanos int64) []byte {
	b = append(b, '"')
	if secs < minInstant || secs > maxInstant || nanos < 0 || nanos > 999_999_999 {
		b = time.Unix(secs, nanos).UTC().AppendFormat(b, TimeLayout)
		return append(b, '"')
	}
	days, rem := secs/86400, secs%86400
	if rem < 0 { // before 1970: floor, not truncation
		days, rem = days-1, rem+86400
	}
	y, m, d := civil(days)
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10), 'T')
	h, mi, s, ms := rem/3600, rem/60%60, rem%60, nanos/1_000_000
	b = append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':',
		byte('0'+s/10), byte('0'+s%10), '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 'Z', '"')
	return b
}

// AppendTime appends t as a timestamp travels (TimeLayout in UTC), quoted.
func AppendTime(b []byte, t time.Time) []byte {
	return appendInstant(b, t.Unix(), int64(t.Nanosecond()))
}

// The instants appendInstant writes itself: 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59Z, the range of google.protobuf.Timestamp.
const (
	minInstant = -62135596800
	maxInstant = 253402300799
)

// civil is the proleptic Gregorian date of a day counted from 1970-01-01
// (days ≥ 0 of the era that starts 0000-03-01; H. Hinnant's algorithm).
func civil(days int64) (year, month, day int64) {
	z := days + 719468
	era := z / 146097 // z ≥ 0 for every year from 1 on
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = doy - (153*mp+2)/5 + 1
	month = mp + 3
	if month > 12 {
		month -= 12
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, and
// U+2028/U+2029 are escaped so the output is also valid JavaScript. Runs of
// printable ASCII without a quote or a backslash, most of what the platform
// writes, are found eight bytes at a time and copied whole.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plainASCII8(s[i:i+8]) {
			i += 8
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainASCII8 reports whether the eight bytes of s are all printable ASCII
// other than '"' and '\\' (0x20-0x7f without 0x22 and 0x5c): no byte with
// its top bit set, none below 0x20, none equal to either character. Each
// test is the classic "has a byte less than n" word trick, exact about
// whether such a byte exists.
func plainASCII8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	_ = s[7]
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	below20 := (x - 0x20*ones) &^ x
	quote := ((x ^ 0x22*ones) - ones) &^ (x ^ 0x22*ones)
	backslash := ((x ^ 0x5c*ones) - ones) &^ (x ^ 0x5c*ones)
	return (x|below20|quote|backslash)&highs == 0
}

// AppendString appends s as a JSON string literal.
func AppendString(b []byte, s string) []byte { return appendString(b, s) }
