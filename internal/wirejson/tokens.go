package wirejson

import (
	"encoding/json"
	"unicode/utf8"
)

// tokens reads the tokens of a body that json.Valid has accepted, the way
// json.Decoder.Token (with UseNumber) would: delimiters as json.Delim, strings
// unquoted, numbers as json.Number, true/false as bool, null as nil; commas and
// colons are skipped. json.Decoder re-scans every value byte by byte and
// allocates an error for each scalar it ends (its scanner reports the byte
// after a top-level value as one), which made it the largest cost of decoding
// a 5,000-product bulk body; the body being valid already, this reader only
// has to find where each token ends.
type tokens struct {
	data []byte
	pos  int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skip moves past white space and the separators between tokens.
func (t *tokens) skip() {
	for t.pos < len(t.data) {
		switch c := t.data[t.pos]; {
		case isSpace(c), c == ',', c == ':':
			t.pos++
		default:
			return
		}
	}
}

// more reports whether the current array or object has another element.
func (t *tokens) more() bool {
	t.skip()
	return t.pos < len(t.data) && t.data[t.pos] != ']' && t.data[t.pos] != '}'
}

// atString reports whether the next token is a string.
func (t *tokens) atString() bool {
	t.skip()
	return t.pos < len(t.data) && t.data[t.pos] == '"'
}

// atEnd reports whether only white space is left.
func (t *tokens) atEnd() bool {
	for t.pos < len(t.data) && isSpace(t.data[t.pos]) {
		t.pos++
	}
	return t.pos == len(t.data)
}

// next returns the next token; ok is false at the end of the data or on
// bytes that cannot start a token (impossible after json.Valid).
func (t *tokens) next() (tok json.Token, ok bool) {
	t.skip()
	if t.pos >= len(t.data) {
		return nil, false
	}
	switch c := t.data[t.pos]; c {
	case '{', '}', '[', ']':
		t.pos++
		return json.Delim(c), true
	case '"':
		return t.str()
	case 't':
		return t.literal("true", true)
	case 'f':
		return t.literal("false", false)
	case 'n':
		return t.literal("null", nil)
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			start := t.pos
			for t.pos < len(t.data) && isNumberByte(t.data[t.pos]) {
				t.pos++
			}
			return json.Number(t.data[start:t.pos]), true
		}
	}
	return nil, false
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (t *tokens) literal(word string, v json.Token) (json.Token, bool) {
	end := t.pos + len(word)
	if end > len(t.data) || string(t.data[t.pos:end]) != word {
		return nil, false
	}
	t.pos = end
	return v, true
}

// str reads a string token.
func (t *tokens) str() (json.Token, bool) {
	b, ok := t.strBytes()
	if !ok {
		return nil, false
	}
	return string(b), true
}

// key reads an object key as bytes, without allocating for a plain key (a
// map lookup of string(key) does not copy it): the decoder looks up every
// key of every object it reads.
func (t *tokens) key() ([]byte, bool) {
	t.skip()
	if t.pos >= len(t.data) || t.data[t.pos] != '"' {
		return nil, false
	}
	return t.strBytes()
}

// strBytes reads the string at pos. Plain strings (no escapes, valid UTF-8)
// are the body's own bytes; any other is unquoted by encoding/json itself,
// so escapes and invalid UTF-8 (read as U+FFFD) come out exactly as
// json.Decoder gives them.
func (t *tokens) strBytes() ([]byte, bool) {
	start := t.pos
	plain := true
	i := start + 1
	for ; i < len(t.data); i++ {
		c := t.data[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			i++ // the escaped byte cannot end the string
			continue
		}
		if c >= utf8.RuneSelf {
			plain = false
		}
	}
	if i >= len(t.data) {
		return nil, false
	}
	t.pos = i + 1
	raw := t.data[start:t.pos]
	if plain || utf8.Valid(raw) && !hasBackslash(raw) {
		return raw[1 : len(raw)-1], true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	return []byte(s), true
}

func hasBackslash(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}
