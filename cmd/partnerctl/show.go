package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// printSigned writes what --verbose shows of a signed request: the
// string-to-sign, rebuilt from the request as it will travel by the same
// sdk/signing code the gateway verifies with, then the request line and
// headers. A partner compares that string with the one a sandbox
// INVALID_SIGNATURE answer names.
func printSigned(w io.Writer, hr *http.Request, body []byte) {
	sr := signing.FromHTTP(hr, body)
	sts, err := sr.StringToSign()
	if err != nil {
		sts = "(none: " + err.Error() + ")"
	}
	fmt.Fprintf(w, "* string-to-sign: %s\n", sts)
	fmt.Fprintf(w, "> %s %s\n", hr.Method, hr.URL.String())
	for _, name := range headerNames(hr.Header) {
		for _, v := range hr.Header[name] {
			if name == signing.HeaderAccessToken {
				// A bearer credential of the seller's: verbose output ends
				// up in terminals, tickets and CI logs.
				v = fmt.Sprintf("(%d characters, not shown)", len(v))
			}
			fmt.Fprintf(w, "> %s: %s\n", name, v)
		}
	}
}

// printAnswerID writes the answer's status and request id (what support
// asks for) for --verbose.
func printAnswerID(w io.Writer, resp *sdk.Response) {
	id := resp.Header.Get("X-Request-Id")
	if id == "" {
		var env sdk.Envelope
		if json.Unmarshal(resp.Body, &env) == nil {
			id = env.RequestID
		}
	}
	if id == "" {
		id = "(none)"
	}
	fmt.Fprintf(w, "< %d %s, request id %s\n", resp.Status, http.StatusText(resp.Status), id)
}

// printHeaders writes h as "Name: value" lines, sorted, without the
// User-Agent (the HTTP tool sends its own).
func printHeaders(w io.Writer, h http.Header) {
	for _, name := range headerNames(h) {
		for _, v := range h[name] {
			fmt.Fprintf(w, "%s: %s\n", name, v)
		}
	}
}

func headerNames(h http.Header) []string {
	names := make([]string, 0, len(h))
	for name := range h {
		if name != "User-Agent" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// printField writes one field of a 2xx answer's JSON body, a string bare
// and anything else as compact JSON, so that a shell can capture it
// (id=$(partnerctl --field data.product_id POST ...)). An error answer is
// printed whole on stderr.
func printField(stdout, stderr io.Writer, resp *sdk.Response, path string) int {
	if !resp.OK() {
		printResponse(stderr, resp, false)
		return exitFail
	}
	var v any
	if err := json.Unmarshal(resp.Body, &v); err != nil {
		fmt.Fprintf(stderr, "partnerctl: the answer is not JSON: %v\n", err)
		return exitFail
	}
	for _, key := range strings.Split(path, ".") {
		switch node := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = node[key]; ok {
				continue
			}
		case []any:
			if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(node) {
				v = node[i]
				continue
			}
		}
		fmt.Fprintf(stderr, "partnerctl: the answer has no field %s\n", path)
		return exitFail
	}
	if s, ok := v.(string); ok {
		fmt.Fprintln(stdout, s)
		return exitOK
	}
	b, _ := json.Marshal(v) // it came from JSON
	fmt.Fprintln(stdout, string(b))
	return exitOK
}
