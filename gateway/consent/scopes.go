package consent

// scopeWords says what each scope lets an app do, in the words a seller
// reads on the consent step.
var scopeWords = map[string]string{
	"catalog:read":        "See your products and categories",
	"catalog:write":       "Create and change your products",
	"orders:read":         "See your orders, shipping and returns",
	"orders:write":        "Cancel and ship your orders",
	"customer:email:read": "See your buyers' e-mail addresses",
}

// scopeItem is one scope as the page lists it.
type scopeItem struct {
	// Scope is the scope's name, sent back when the seller grants fewer.
	Scope string
	// Words describe it plainly.
	Words string
}

// describeScopes lists the scopes asked for in plain words. A scope the
// page has no words for yet is shown by its name rather than hidden: a
// seller never grants something the page did not show.
func describeScopes(scopes []string) []scopeItem {
	out := make([]scopeItem, 0, len(scopes))
	for _, s := range scopes {
		w, ok := scopeWords[s]
		if !ok {
			w = "Use the permission " + s
		}
		out = append(out, scopeItem{Scope: s, Words: w})
	}
	return out
}
