package apierr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxMessageBytes bounds the message of any error that leaves core. The
// message travels in a gRPC trailer (grpc-message) on the connection the
// gateway shares between every partner's requests; a trailer too large for
// the gateway to decode closes that connection and fails the other
// requests on it, so no message may grow with what a request sent.
const MaxMessageBytes = 1024

// MaxListedViolations is how many violations one VALIDATION_ERROR message
// lists; the rest are counted. A partner fixes the first few and resends.
const MaxListedViolations = 10

// listedViolationBytes is the share of MaxMessageBytes the listed
// violations may use, leaving room for the "and N more" count.
const listedViolationBytes = 768

// Truncate cuts s to at most n bytes on a UTF-8 boundary, ending it with
// "…" when it was cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := max(n-len(ellipsis), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

// JoinViolations renders violations as one message: at most
// MaxListedViolations of listed, within a fixed byte budget, then
// "…and N more violations" for the rest of total. Callers that find many
// violations pass only the first few as listed and count the others in
// total, so that rendering costs nothing per extra violation.
func JoinViolations(listed []string, total int) string {
	var b strings.Builder
	shown := 0
	for _, part := range listed {
		if shown == MaxListedViolations {
			break
		}
		part = Truncate(part, listedViolationBytes/4)
		if shown > 0 && b.Len()+2+len(part) > listedViolationBytes {
			break
		}
		if shown > 0 {
			b.WriteString("; ")
		}
		b.WriteString(part)
		shown++
	}
	if more := total - shown; more > 0 {
		if shown > 0 {
			b.WriteString("; ")
		}
		b.WriteString("…and " + strconv.Itoa(more) + " more violation")
		if more > 1 {
			b.WriteByte('s')
		}
	}
	return b.String()
}
