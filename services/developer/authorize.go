package developer

import "github.com/mallplatform/partnerapi/services/auth"

// action is something a member asks to do in an account; authorize decides
// it from the member's role.
type action struct {
	kind actionKind
	// environment is the app's (sandbox or production), for app actions.
	environment string
}

type actionKind int

const (
	// actManageApp creates, changes, rotates, deactivates or deletes an app.
	actManageApp actionKind = iota + 1
	// actAppCredentials downloads an app's credentials file (its secret).
	actAppCredentials
)

func manageApp(environment string) action {
	return action{kind: actManageApp, environment: environment}
}

func appCredentials(environment string) action {
	return action{kind: actAppCredentials, environment: environment}
}

// authorize is the one decision of what a member's role allows (reading
// the account and its apps is open to every member): OWNER and ADMIN
// manage every app, DEVELOPER sandbox apps only, VIEWER none. A refusal is
// MEMBER_PERMISSION_DENIED.
func authorize(a Actor, act action) error {
	switch act.kind {
	case actManageApp, actAppCredentials:
		if mayManage(a.Member.Role, act.environment) {
			return nil
		}
	}
	return errPermission
}

// mayManage reports whether a role may change apps of an environment:
// DEVELOPER sandbox ones only, VIEWER none.
func mayManage(role, environment string) bool {
	switch role {
	case RoleOwner, RoleAdmin:
		return true
	case RoleDeveloper:
		return environment == auth.EnvSandbox
	}
	return false
}
