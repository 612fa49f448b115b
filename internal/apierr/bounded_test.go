package apierr

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// No message that leaves core is longer than MaxMessageBytes, whatever
// produced it, and the code survives the cut (a 4 MB message once
// travelled in a gRPC trailer and closed the gateway's shared connection).
func TestToStatusBoundsEveryMessage(t *testing.T) {
	huge := strings.Repeat("variants[0].price: must be set; ", 100000) + "é"
	catalogued := ToStatus(New(ValidationError, huge))
	// A status from a nested core call already carries the platform's
	// reason and is passed through; its message is bounded too.
	passed := ToStatus(withReasonUnbounded(ValidationError, huge).Err())
	for name, st := range map[string]*status.Status{"catalogued": catalogued, "passed through": passed} {
		if len(st.Message()) > MaxMessageBytes || !utf8.ValidString(st.Message()) || !strings.HasSuffix(st.Message(), "…") {
			t.Errorf("%s: %d bytes, valid UTF-8 %v: %q…", name, len(st.Message()), utf8.ValidString(st.Message()), st.Message()[:40])
		}
		if c, _ := FromStatus(st); c != ValidationError || st.Code() != codes.InvalidArgument {
			t.Errorf("%s: code %v / %v, want VALIDATION_ERROR", name, Name(c), st.Code())
		}
	}
	short := ToStatus(New(NotFound, "order not found"))
	if short.Message() != "order not found" {
		t.Errorf("a short message changed: %q", short.Message())
	}
}

func withReasonUnbounded(c Code, msg string) *status.Status {
	st, err := status.New(GRPCCode(c), msg).WithDetails(&errdetails.ErrorInfo{Reason: Name(c), Domain: Domain})
	if err != nil {
		panic(err)
	}
	return st
}

// A message listing thousands of violations names the first few and counts
// the rest, within the bound, so the count is never what gets cut.
func TestJoinViolationsListsAFewAndCountsTheRest(t *testing.T) {
	parts := make([]string, 25000)
	for i := range parts {
		parts[i] = "products[" + strconv.Itoa(i) + "].title: must be at least 8 characters"
	}
	got := JoinViolations(parts[:50], len(parts))
	if strings.Count(got, "; ") != MaxListedViolations || !strings.HasSuffix(got, "; …and 24990 more violations") || len(got) > MaxMessageBytes {
		t.Errorf("%d bytes: %s", len(got), got)
	}
	long := strings.Repeat("x", 5000)
	got = JoinViolations([]string{long, long, long, long, long}, 5)
	if len(got) > MaxMessageBytes || !strings.HasSuffix(got, "more violations") {
		t.Errorf("long parts: %d bytes: …%s", len(got), got[len(got)-40:])
	}
	if got := JoinViolations([]string{"a: x", "b: y"}, 2); got != "a: x; b: y" {
		t.Errorf("two violations: %q", got)
	}
	if got := JoinViolations([]string{"a: x"}, 2); got != "a: x; …and 1 more violation" {
		t.Errorf("one more: %q", got)
	}
}
