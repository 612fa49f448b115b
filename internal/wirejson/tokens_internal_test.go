package wirejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"testing"
)

// decoderTokens lists the tokens json.Decoder (with UseNumber) reads.
func decoderTokens(t *testing.T, data []byte) []json.Token {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []json.Token
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("json.Decoder on %q: %v", data, err)
		}
		out = append(out, tok)
	}
}

func TestTokensReadAsJSONDecoderDoes(t *testing.T) {
	bodies := []string{
		`{}`, `[]`, `"x"`, `0`, `-1.5e+10`, `true`, `false`, `null`,
		` { "a" : [ 1 , 2.0 , -3e-2 , "b" , null , true , false , { } , [ ] ] , "c" : { "d" : "" } } `,
		`{"escaped":"a\"b\\c\/d\b\f\n\r\tA\u00e9\ud83d\ude00 end","plain":"Las Piñas"}`,
		"{\"invalid utf8\":\"a\xffb\xc3\"}",
		`{"nested":[[[{"k":[0,1,{"x":"\\"}]}]]],"tail":"\\\\"}`,
		"\n\t[1,\r\n2]\n",
	}
	for _, body := range bodies {
		data := []byte(body)
		if !json.Valid(data) {
			t.Fatalf("test body %q is not valid JSON", body)
		}
		want := decoderTokens(t, data)
		toks := tokens{data: data}
		var got []json.Token
		for !toks.atEnd() {
			tok, ok := toks.next()
			if !ok {
				t.Fatalf("%q: no token at byte %d", body, toks.pos)
			}
			got = append(got, tok)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %#v\nwant %#v", body, got, want)
		}
	}
}

func TestTokensMoreAsJSONDecoderDoes(t *testing.T) {
	data := []byte(`{"a":[1, 2 ], "b":{ } }`)
	toks := tokens{data: data}
	var trace []any
	for !toks.atEnd() {
		trace = append(trace, toks.more())
		tok, _ := toks.next()
		trace = append(trace, tok)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want []any
	for {
		more := dec.More()
		tok, err := dec.Token()
		if err != nil {
			break
		}
		want = append(want, more, tok)
	}
	if !reflect.DeepEqual(trace, want) {
		t.Errorf("got %v\nwant %v", trace, want)
	}
}

func TestFieldSet(t *testing.T) {
	var s fieldSet
	for _, i := range []int{0, 5, 63, 64, 200} {
		if !s.add(i) {
			t.Fatalf("%d: first add reported present", i)
		}
		if s.add(i) {
			t.Fatalf("%d: second add reported absent", i)
		}
	}
	if !s.add(1) || !s.add(65) {
		t.Fatal("other indexes reported present")
	}
}

func TestTokensKey(t *testing.T) {
	toks := tokens{data: []byte(`{"title" : 1, "ti\u0074le":2, "Piñas":3}`)}
	if tok, _ := toks.next(); tok != json.Delim('{') {
		t.Fatalf("first token %v", tok)
	}
	for _, want := range []string{"title", "title", "Piñas"} {
		key, ok := toks.key()
		if !ok || string(key) != want {
			t.Fatalf("key: got %q %v, want %q", key, ok, want)
		}
		if _, ok := toks.next(); !ok {
			t.Fatal("no value after the key")
		}
	}
	if toks.more() {
		t.Fatal("more after the last member")
	}
}
