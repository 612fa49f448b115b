package developer_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/developer"
)

func grpcCode(err error) apierr.Code {
	code, _ := apierr.FromStatus(status.Convert(err))
	return code
}

// console is a call as the gateway forwards it: the cookie's value, the
// CSRF header and the client's address.
func console(session, csrf string) context.Context {
	md := []string{principal.KeyClientIP, "192.0.2.10"}
	if session != "" {
		md = append(md, principal.KeyConsoleSession, session)
	}
	if csrf != "" {
		md = append(md, principal.KeyCSRFToken, csrf)
	}
	return metadata.AppendToOutgoingContext(context.Background(), md...)
}

// The console's account steps through core as the gateway calls them, on
// both databases: sign-up, the mailed link, sign-in, reads without and
// changes with the CSRF token, sign-out.
func TestDeveloperServiceOverCore(t *testing.T) {
	for _, pg := range []bool{true, false} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			o := &outbox{}
			env := testenv.Start(t, testenv.Options{Postgres: pg, ConsoleMail: o})
			c := developerv1.NewDeveloperServiceClient(env.Conn)

			up, err := c.SignUp(console("", ""), &developerv1.SignUpRequest{Email: "Ana@Example.com", Password: password,
				Name: "Ana Cruz", DeveloperType: developer.TypeIndividual})
			if err != nil {
				t.Fatal(err)
			}
			if up.GetData().GetEmail() != "ana@example.com" || up.GetData().GetEmailVerified() {
				t.Fatalf("sign-up answered %v", up.GetData())
			}
			_, err = c.SignUp(console("", ""), &developerv1.SignUpRequest{Email: "x@example.com", Password: password,
				Name: "X", DeveloperType: "individual"})
			if got := grpcCode(err); got != errorsv1.ErrorCode_ERROR_CODE_INVALID_DEVELOPER_TYPE {
				t.Fatalf("lower-case type: %v", err)
			}

			in, err := c.SignIn(console("", ""), &developerv1.SignInRequest{Email: "ana@example.com", Password: password})
			if err != nil {
				t.Fatal(err)
			}
			session, csrf := in.GetSession(), in.GetData().GetCsrfToken()
			if session == "" || csrf == "" || in.GetData().GetRole() != developer.RoleOwner ||
				in.GetData().GetAccountId() != up.GetData().GetAccountId() {
				t.Fatalf("sign-in answered %v", in.GetData())
			}
			got, err := c.GetSession(console(session, ""), &developerv1.GetSessionRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetData().GetCsrfToken() != csrf || got.GetSession() != "" {
				t.Fatal("reading the session does not give its CSRF token back, or gives the cookie")
			}

			profile := &developerv1.SubmitProfileRequest{FullName: "Ana Cruz", DateOfBirth: "1990-04-01", IdType: "PASSPORT",
				IdNumber: "P1234567", Address: &developerv1.ProfileAddress{Line1: "1 Ayala Ave", City: "Makati",
					Province: "Metro Manila", PostalCode: "1200", Country: "PH"}}
			_, err = c.SubmitProfile(console(session, csrf), profile)
			if got := grpcCode(err); got != errorsv1.ErrorCode_ERROR_CODE_EMAIL_NOT_VERIFIED {
				t.Fatalf("unverified profile: %v", err)
			}
			if _, err := c.Verify(console("", ""), &developerv1.VerifyRequest{Token: o.lastToken(t, "ana@example.com")}); err != nil {
				t.Fatal(err)
			}
			_, err = c.SubmitProfile(console(session, ""), profile)
			if got := grpcCode(err); got != apierr.Forbidden {
				t.Fatalf("a change without the CSRF token: %v", err)
			}
			acct, err := c.SubmitProfile(console(session, csrf), profile)
			if err != nil {
				t.Fatal(err)
			}
			if acct.GetData().GetProfileStatus() != developer.ProfilePending || !acct.GetData().GetEmailVerified() {
				t.Fatalf("account %v", acct.GetData())
			}

			// Apps: created with the secret once, read back without it,
			// another account's unknown, rotated with the overlap.
			made, err := c.CreateApp(console(session, csrf), &developerv1.CreateAppRequest{Name: "OMS",
				Environment: "sandbox", Scopes: []string{"orders:read"}})
			if err != nil {
				t.Fatal(err)
			}
			appID := made.GetData().GetApp().GetAppId()
			if made.GetData().GetClientSecret() == "" || appID == "" {
				t.Fatalf("created %v", made.GetData())
			}
			listed, err := c.ListApps(console(session, ""), &developerv1.ListAppsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if len(listed.GetData()) != 1 || listed.GetData()[0].GetClientId() != made.GetData().GetApp().GetClientId() {
				t.Fatalf("listed %v", listed.GetData())
			}
			_, err = c.GetApp(console(session, ""), &developerv1.GetAppRequest{Id: "app_of_someone_else"})
			if got := grpcCode(err); got != errorsv1.ErrorCode_ERROR_CODE_APP_NOT_FOUND {
				t.Fatalf("unknown app: %v", err)
			}
			rotated, err := c.RotateAppSecret(console(session, csrf), &developerv1.RotateAppSecretRequest{Id: appID})
			if err != nil {
				t.Fatal(err)
			}
			if rotated.GetData().GetClientSecret() == "" || rotated.GetData().GetPreviousSecretExpiresAt() == nil {
				t.Fatalf("rotation answered %v", rotated.GetData())
			}
			creds, err := env.Auth.AppCredentials(context.Background(), made.GetData().GetApp().GetClientId())
			if err != nil {
				t.Fatal(err)
			}
			if len(creds.Secrets) != 2 {
				t.Fatalf("%d secrets verify after the rotation, want the new and the previous", len(creds.Secrets))
			}

			if _, err := c.SignOut(console(session, csrf), &developerv1.SignOutRequest{}); err != nil {
				t.Fatal(err)
			}
			_, err = c.GetAccount(console(session, ""), &developerv1.GetAccountRequest{})
			if got := grpcCode(err); got != apierr.Unauthorized {
				t.Fatalf("after sign-out: %v", err)
			}
		})
	}
}
