package productinput

import (
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Violation is one broken rule: the field's path inside the product input
// as the partner sent it (JSON names, e.g. "variants[2].price"; "" for the
// product as a whole), the error code and what is wrong.
type Violation struct {
	Field   string
	Code    apierr.Code
	Message string
}

// Text is the violation as a line of an error message: "path: message".
func (v Violation) Text() string {
	if v.Field == "" {
		return v.Message
	}
	return v.Field + ": " + v.Message
}

// Violations collects the violations of one input, so a partner learns
// about its mistakes at once.
type Violations []Violation

func (vs *Violations) add(path, msg string) {
	*vs = append(*vs, Violation{Field: path, Code: apierr.ValidationError, Message: msg})
}

// Add records a violation of code at path.
func (vs *Violations) Add(path string, code apierr.Code, msg string) {
	*vs = append(*vs, Violation{Field: path, Code: code, Message: msg})
}

// Err renders the violations as one error answer, as single create and
// update send it: one code (the first violation's: a category that is not
// found ends the checks on its own) and a message naming the first few and
// counting the rest (apierr.JoinViolations), so that it stays readable, and
// within the bound on messages leaving core, when a 100-variant body is
// wrong everywhere. nil when there is none.
func (vs Violations) Err() error {
	if len(vs) == 0 {
		return nil
	}
	n := min(len(vs), apierr.MaxListedViolations)
	parts := make([]string, n)
	for i, v := range vs[:n] {
		parts[i] = v.Text()
	}
	return apierr.New(vs[0].Code, apierr.JoinViolations(parts, len(vs)))
}
