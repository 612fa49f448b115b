package policy

import (
	"strings"
	"time"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
)

// The developer console's JSON API (AUTH_CONSOLE routes, under
// ConsolePrefix): its session cookie and the limits the gateway applies.
const (
	// ConsolePrefix starts every console route's path, and is the console
	// cookie's Path.
	ConsolePrefix = "/console/"
	// ConsoleSessionIdle ends a console session after this long without a
	// call: core ends it then, and the gateway's cookie, renewed on every
	// answer to a live session, expires with it.
	ConsoleSessionIdle = 12 * time.Hour
	// ConsolePerAccount is how many console calls one developer account
	// makes per ConsoleWindow, across its sessions (a session's calls
	// count alone until the gateway has learnt its account).
	ConsolePerAccount = 300
	// ConsoleWindow is the console rate limit's fixed window.
	ConsoleWindow = time.Minute
)

// Console reports whether the method is a developer console route.
func (m *Method) Console() bool { return m.Policy.GetAuth() == optionsv1.Auth_AUTH_CONSOLE }

// OnConsole reports whether a route's path is the console's rather than
// /open/v1's: each has its own OpenAPI document. The console's root
// (ConsolePrefix) is the route "/console" (Table.Match).
func (r *Route) OnConsole() bool {
	return strings.HasPrefix(r.Template, ConsolePrefix) || r.Template == ConsolePrefix[:len(ConsolePrefix)-1]
}
