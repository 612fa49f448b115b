package developer

import (
	"testing"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/auth"
)

// What each role may do with apps: OWNER and ADMIN everything, DEVELOPER
// sandbox apps only, VIEWER nothing (MEMBER_PERMISSION_DENIED).
func TestAuthorize(t *testing.T) {
	allowed := map[string][]string{
		RoleOwner:     {auth.EnvSandbox, auth.EnvProduction},
		RoleAdmin:     {auth.EnvSandbox, auth.EnvProduction},
		RoleDeveloper: {auth.EnvSandbox},
		RoleViewer:    nil,
		"UNKNOWN":     nil,
	}
	for role, envs := range allowed {
		for _, env := range []string{auth.EnvSandbox, auth.EnvProduction} {
			act := appAction(env)
			err := authorize(Actor{Member: Member{Role: role}}, act)
			want := false
			for _, e := range envs {
				want = want || e == env
			}
			if (err == nil) != want {
				t.Errorf("%s, %v: %v", role, act, err)
			}
			if err != nil && apierr.CodeOf(err) != errPermission.Code {
				t.Errorf("%s, %v: %v, want MEMBER_PERMISSION_DENIED", role, act, err)
			}
		}
	}
}
