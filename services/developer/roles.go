package developer

import "github.com/mallplatform/partnerapi/services/auth"

// action is something a member may or may not do in an account
// (docs/decisions.md, "Developer console: test shops, members and roles").
type action int

const (
	// actRead reads the account, its apps, test shops and members.
	actRead action = iota
	// actSandbox creates and changes sandbox apps and test shops, and
	// authorises a test shop for a sandbox app.
	actSandbox
	// actLive creates and changes live (production) apps.
	actLive
	// actProfile submits the account's profile.
	actProfile
	// actMembers invites and removes members below OWNER.
	actMembers
	// actRoles changes roles, invites or removes an OWNER.
	actRoles
	// actDeleteAccount deletes the account.
	actDeleteAccount
)

// permitted is the one table of what each role may do: VIEWER reads;
// DEVELOPER also manages the sandbox; ADMIN everything but roles and the
// account's deletion; OWNER everything.
var permitted = map[string]map[action]bool{
	RoleViewer:    {actRead: true},
	RoleDeveloper: {actRead: true, actSandbox: true},
	RoleAdmin:     {actRead: true, actSandbox: true, actLive: true, actProfile: true, actMembers: true},
	RoleOwner: {actRead: true, actSandbox: true, actLive: true, actProfile: true, actMembers: true, actRoles: true,
		actDeleteAccount: true},
}

// authorize is the role check every console method goes through: 403
// MEMBER_PERMISSION_DENIED when the actor's role in the account does not
// allow act.
func authorize(a Actor, act action) error {
	if !permitted[a.Member.Role][act] {
		return errPermission
	}
	return nil
}

// appAction is what changing an app of an environment takes.
func appAction(environment string) action {
	if environment == auth.EnvSandbox {
		return actSandbox
	}
	return actLive
}

func validRole(role string) bool {
	_, ok := permitted[role]
	return ok
}
