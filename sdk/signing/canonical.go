package signing

import (
	"bytes"
	"errors"
	"slices"
	"strings"
)

// ErrInvalidEscape reports a '%' in the query that is not followed by two
// hexadecimal digits. Such a query has no canonical form, so the gateway
// answers 400 BAD_REQUEST instead of guessing what the partner signed.
var ErrInvalidEscape = errors.New("signing: invalid percent-escape in query")

// unreserved holds the bytes that JavaScript's encodeURIComponent leaves as
// they are. Every other byte is written as %XX.
var unreserved = func() (t [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") {
		t[c] = true
	}
	return t
}()

const upperHex = "0123456789ABCDEF"

// pair locates one re-encoded key and value in querySpace.enc: the key is
// enc[k:v] and the value enc[v:end]. Offsets instead of strings keep the
// canonicalization free of per-pair allocations.
type pair struct{ k, v, end int }

// querySpace is reusable working memory for canonicalization.
type querySpace struct {
	enc   []byte
	pairs []pair
}

// CanonicalQuery returns the canonical form of a raw query string (with or
// without its leading '?') as the signed string carries it:
//
//  1. "" and "?" give "".
//  2. The query is split on '&'; an empty segment (as in "a=1&&b=2" or a
//     trailing '&') is not a pair and is skipped. Each segment is split on its
//     first '='; a segment without '=' is a key with an empty value.
//  3. Keys and values are percent-decoded once, '+' meaning space, and
//     re-encoded with encodeURIComponent semantics: A-Z a-z 0-9 - _ . ! ~ * ' ( )
//     stay raw and every other byte becomes %XX with uppercase hex. Decoding
//     works on bytes, so a decoded byte sequence that is not valid UTF-8 is
//     re-encoded byte for byte rather than rejected or replaced.
//  4. Pairs are sorted by re-encoded key, bytewise, then by re-encoded value;
//     a key that is a prefix of another sorts first ("a" before "a-b").
//  5. Pairs are joined with '&', each written as key=value even when the
//     value is empty.
//
// A '%' not followed by two hexadecimal digits returns ErrInvalidEscape.
func CanonicalQuery(rawQuery string) (string, error) {
	if rawQuery == "" || rawQuery == "?" {
		return "", nil
	}
	s := getScratch()
	defer putScratch(s)
	out, err := s.q.appendCanonical(s.buf[:0], rawQuery)
	s.buf = out
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// AppendCanonicalQuery appends the canonical form of rawQuery to dst, as
// CanonicalQuery computes it. On error dst is returned unchanged.
func AppendCanonicalQuery(dst []byte, rawQuery string) ([]byte, error) {
	if rawQuery == "" || rawQuery == "?" {
		return dst, nil
	}
	s := getScratch()
	defer putScratch(s)
	return s.q.appendCanonical(dst, rawQuery)
}

func (qs *querySpace) appendCanonical(dst []byte, raw string) ([]byte, error) {
	raw = strings.TrimPrefix(raw, "?")
	enc, pairs := qs.enc[:0], qs.pairs[:0]
	defer func() { qs.enc, qs.pairs = enc, pairs }()
	for raw != "" {
		var seg string
		seg, raw, _ = strings.Cut(raw, "&")
		if seg == "" {
			continue
		}
		key, val, _ := strings.Cut(seg, "=")
		var p pair
		var err error
		p.k = len(enc)
		if enc, err = appendReencoded(enc, key); err != nil {
			return dst, err
		}
		p.v = len(enc)
		if enc, err = appendReencoded(enc, val); err != nil {
			return dst, err
		}
		p.end = len(enc)
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if c := bytes.Compare(enc[a.k:a.v], enc[b.k:b.v]); c != 0 {
			return c
		}
		return bytes.Compare(enc[a.v:a.end], enc[b.v:b.end])
	})
	for i, p := range pairs {
		if i > 0 {
			dst = append(dst, '&')
		}
		dst = append(dst, enc[p.k:p.v]...)
		dst = append(dst, '=')
		dst = append(dst, enc[p.v:p.end]...)
	}
	return dst, nil
}

// appendReencoded decodes s once ('+' is space, %XX is a byte) and appends
// the encodeURIComponent form of the decoded bytes, in a single pass.
func appendReencoded(dst []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '+':
			c = ' '
		case '%':
			if i+2 >= len(s) {
				return dst, ErrInvalidEscape
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return dst, ErrInvalidEscape
			}
			c = hi<<4 | lo
			i += 2
		}
		if unreserved[c] {
			dst = append(dst, c)
		} else {
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&0x0f])
		}
	}
	return dst, nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
