package developer_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/pickupaddress"
	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/developer"
)

// linkToken is the token of the last link to page mailed to an address.
func (o *outbox) linkToken(t *testing.T, to, page string) string {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.sent) - 1; i >= 0; i-- {
		if o.sent[i].To != to {
			continue
		}
		_, rest, ok := strings.Cut(o.sent[i].Text, "https://console.example/console/"+page+"?token=")
		if !ok {
			continue
		}
		tok, err := url.QueryUnescape(strings.Fields(rest)[0])
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	t.Fatalf("no %s link mailed to %s", page, to)
	return ""
}

// person is someone signed in to the console through core.
type person struct {
	email, session, csrf, accountID string
}

func (p person) reads() context.Context   { return console(p.session, "") }
func (p person) changes() context.Context { return console(p.session, p.csrf) }

// signedUp signs a person up, verifies the address and signs in.
func signedUp(t *testing.T, c developerv1.DeveloperServiceClient, o *outbox, email, name string) person {
	t.Helper()
	up, err := c.SignUp(console("", ""), &developerv1.SignUpRequest{Email: email, Password: password, Name: name,
		DeveloperType: developer.TypeIndividual})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Verify(console("", ""), &developerv1.VerifyRequest{Token: o.lastToken(t, email)}); err != nil {
		t.Fatal(err)
	}
	p := signIn(t, c, email, "")
	if p.accountID != up.GetData().GetAccountId() {
		t.Fatalf("signed in to %s, signed up %s", p.accountID, up.GetData().GetAccountId())
	}
	return p
}

func signIn(t *testing.T, c developerv1.DeveloperServiceClient, email, accountID string) person {
	t.Helper()
	req := &developerv1.SignInRequest{Email: email, Password: password}
	if accountID != "" {
		req.AccountId = &accountID
	}
	in, err := c.SignIn(console("", ""), req)
	if err != nil {
		t.Fatal(err)
	}
	return person{email: email, session: in.GetSession(), csrf: in.GetData().GetCsrfToken(), accountID: in.GetData().GetAccountId()}
}

func wantGRPC(t *testing.T, what string, err error, want apierr.Code) {
	t.Helper()
	if got := grpcCode(err); err == nil || got != want {
		t.Fatalf("%s: %v, want %v", what, err, want)
	}
}

// invite invites an address and answers the mailed link's token.
func invite(t *testing.T, c developerv1.DeveloperServiceClient, o *outbox, by person, email, role string) string {
	t.Helper()
	inv, err := c.InviteMember(by.changes(), &developerv1.InviteMemberRequest{Email: email, Role: role})
	if err != nil {
		t.Fatal(err)
	}
	if inv.GetData().GetRole() != role || inv.GetData().GetEmail() != email || inv.GetData().GetExpiresAt() == nil {
		t.Fatalf("invited %v", inv.GetData())
	}
	return o.linkToken(t, email, "invitations/accept")
}

func accept(t *testing.T, c developerv1.DeveloperServiceClient, p *person, token, wantAccount, wantRole string) {
	t.Helper()
	s, err := c.AcceptInvitation(p.changes(), &developerv1.AcceptInvitationRequest{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	if s.GetData().GetAccountId() != wantAccount || s.GetData().GetRole() != wantRole || s.GetData().GetCsrfToken() != p.csrf {
		t.Fatalf("accepted into %v", s.GetData())
	}
	got, err := c.GetSession(p.reads(), &developerv1.GetSessionRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetData().GetAccountId() != wantAccount || got.GetData().GetRole() != wantRole {
		t.Fatalf("the session was not switched: %v", got.GetData())
	}
	p.accountID = wantAccount
}

func memberID(t *testing.T, c developerv1.DeveloperServiceClient, p person, email string) string {
	t.Helper()
	ms, err := c.ListMembers(p.reads(), &developerv1.ListMembersRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms.GetData() {
		if m.GetEmail() == email {
			return m.GetId()
		}
	}
	t.Fatalf("%s is not a member: %v", email, ms.GetData())
	return ""
}

// Members, invitations, roles and test shops through core as the gateway
// calls them, on both databases.
func TestConsoleMembersAndTestShopsOverCore(t *testing.T) {
	for _, pg := range []bool{true, false} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			o := &outbox{}
			env := testenv.Start(t, testenv.Options{Postgres: pg, ConsoleMail: o, BusinessClock: true})
			c := developerv1.NewDeveloperServiceClient(env.Conn)
			ctx := context.Background()

			ana := signedUp(t, c, o, "ana@example.com", "Ana Cruz")
			bob := signedUp(t, c, o, "bob@example.com", "Bob Lim")
			home, bobsOwn := ana.accountID, bob.accountID

			// Test shops: made as the seed makes them, authorised for a
			// sandbox app in one step, its tokens usable on the API.
			made, err := c.CreateTestShop(ana.changes(), &developerv1.CreateTestShopRequest{ShopName: "Ana's Test Shop"})
			if err != nil {
				t.Fatal(err)
			}
			shop := made.GetData().GetShop()
			if shop.GetId() == "" || shop.GetUsername() == "" || made.GetData().GetPassword() == "" ||
				len(made.GetData().GetOtp()) != 6 || shop.GetShopName() != "Ana's Test Shop" {
				t.Fatalf("made %v", made.GetData())
			}
			addresses, err := env.DB.Ent.PickupAddress.Query().Where(pickupaddress.SellerID(shop.GetId())).Count(ctx)
			if err != nil || addresses != 2 {
				t.Fatalf("%d pickup addresses (%v), want 2", addresses, err)
			}
			listed, err := c.ListTestShops(ana.reads(), &developerv1.ListTestShopsRequest{})
			if err != nil || len(listed.GetData()) != 1 || listed.GetData()[0].GetId() != shop.GetId() {
				t.Fatalf("listed %v (%v)", listed.GetData(), err)
			}
			app, err := c.CreateApp(ana.changes(), &developerv1.CreateAppRequest{Name: "OMS", Environment: "sandbox",
				Scopes: []string{"orders:read"}})
			if err != nil {
				t.Fatal(err)
			}
			appID := app.GetData().GetApp().GetAppId()
			granted, err := c.AuthorizeTestShop(ana.changes(), &developerv1.AuthorizeTestShopRequest{Id: shop.GetId(), AppId: appID})
			if err != nil {
				t.Fatal(err)
			}
			tok := granted.GetData()
			if tok.GetSellerId() != shop.GetId() || tok.GetAccessToken() == "" || tok.GetRefreshToken() == "" ||
				strings.Join(tok.GetScopes(), " ") != "orders:read" {
				t.Fatalf("authorised %v", tok)
			}
			partner, err := sdk.New(sdk.Config{BaseURL: env.BaseURL, ClientID: app.GetData().GetApp().GetClientId(),
				ClientSecret: app.GetData().GetClientSecret(), Now: env.Clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			var orders []map[string]any
			resp, err := partner.WithSeller(shop.GetId(), tok.GetAccessToken()).Call(ctx, "GET", "/open/v1/orders?limit=5", nil, &orders)
			if err != nil {
				t.Fatalf("orders with the test shop's token: %v", err)
			}
			if resp.Status != 200 || len(orders) == 0 {
				t.Fatalf("the test shop has no orders: %d %s", resp.Status, resp.Body)
			}

			// Another account's shop or app is not found.
			bobApp, err := c.CreateApp(bob.changes(), &developerv1.CreateAppRequest{Name: "Bob's", Environment: "sandbox",
				Scopes: []string{"orders:read"}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.AuthorizeTestShop(bob.changes(), &developerv1.AuthorizeTestShopRequest{Id: shop.GetId(),
				AppId: bobApp.GetData().GetApp().GetAppId()})
			wantGRPC(t, "another account's shop", err, apierr.NotFound)
			_, err = c.AuthorizeTestShop(ana.changes(), &developerv1.AuthorizeTestShopRequest{Id: shop.GetId(),
				AppId: bobApp.GetData().GetApp().GetAppId()})
			wantGRPC(t, "another account's app", err, errorsv1.ErrorCode_ERROR_CODE_APP_NOT_FOUND)

			// Invitations: only the invited person, once, in time.
			bobToken := invite(t, c, o, ana, "bob@example.com", developer.RoleDeveloper)
			carol := signedUp(t, c, o, "carol@example.com", "Carol Tan")
			_, err = c.AcceptInvitation(carol.changes(), &developerv1.AcceptInvitationRequest{Token: bobToken})
			wantGRPC(t, "another person's invitation", err, apierr.Forbidden)
			_, err = c.AcceptInvitation(bob.reads(), &developerv1.AcceptInvitationRequest{Token: bobToken})
			wantGRPC(t, "accepting without the CSRF token", err, apierr.Forbidden)
			_, err = c.AcceptInvitation(bob.changes(), &developerv1.AcceptInvitationRequest{Token: "not-a-token"})
			wantGRPC(t, "an unknown invitation", err, errorsv1.ErrorCode_ERROR_CODE_INVALID_VERIFICATION_TOKEN)
			accept(t, c, &bob, bobToken, home, developer.RoleDeveloper)
			_, err = c.AcceptInvitation(bob.changes(), &developerv1.AcceptInvitationRequest{Token: bobToken})
			wantGRPC(t, "a used invitation", err, errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_LINK_USED)
			_, err = c.InviteMember(ana.changes(), &developerv1.InviteMemberRequest{Email: "bob@example.com", Role: developer.RoleViewer})
			wantGRPC(t, "inviting a member", err, apierr.Conflict)

			carolToken := invite(t, c, o, ana, "carol@example.com", developer.RoleViewer)
			env.Business.Advance(developer.InvitationTTL + time.Minute)
			_, err = c.AcceptInvitation(carol.changes(), &developerv1.AcceptInvitationRequest{Token: carolToken})
			wantGRPC(t, "an expired invitation", err, errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_TOKEN_EXPIRED)
			accept(t, c, &carol, invite(t, c, o, ana, "carol@example.com", developer.RoleViewer), home, developer.RoleViewer)

			// Account switching: a person in two accounts signs in to either,
			// never to one they are not in.
			if p := signIn(t, c, "bob@example.com", bobsOwn); p.accountID != bobsOwn {
				t.Fatalf("signed in to %s, asked for %s", p.accountID, bobsOwn)
			}
			_, err = c.SignIn(console("", ""), &developerv1.SignInRequest{Email: "carol@example.com", Password: password,
				AccountId: &bobsOwn})
			wantGRPC(t, "signing in to another's account", err, apierr.Forbidden)

			// What each role may do. A VIEWER reads only.
			for what, err := range map[string]error{
				"list apps":    errOf(c.ListApps(carol.reads(), &developerv1.ListAppsRequest{})),
				"list members": errOf(c.ListMembers(carol.reads(), &developerv1.ListMembersRequest{})),
				"list shops":   errOf(c.ListTestShops(carol.reads(), &developerv1.ListTestShopsRequest{})),
				"read an app":  errOf(c.GetApp(carol.reads(), &developerv1.GetAppRequest{Id: appID})),
			} {
				if err != nil {
					t.Fatalf("a viewer cannot %s: %v", what, err)
				}
			}
			denied := func(who person, role string) map[string]error {
				return map[string]error{
					"create a sandbox app": errOf(c.CreateApp(who.changes(), &developerv1.CreateAppRequest{Name: "X",
						Environment: "sandbox", Scopes: []string{"orders:read"}})),
					"rotate a secret": errOf(c.RotateAppSecret(who.changes(), &developerv1.RotateAppSecretRequest{Id: appID})),
					"create a test shop": errOf(c.CreateTestShop(who.changes(),
						&developerv1.CreateTestShopRequest{ShopName: "X"})),
					"authorise a test shop": errOf(c.AuthorizeTestShop(who.changes(),
						&developerv1.AuthorizeTestShopRequest{Id: shop.GetId(), AppId: appID})),
					"invite": errOf(c.InviteMember(who.changes(), &developerv1.InviteMemberRequest{Email: "x@example.com",
						Role: developer.RoleViewer})),
					"change a role": errOf(c.UpdateMember(who.changes(), &developerv1.UpdateMemberRequest{
						Id: memberID(t, c, ana, "ana@example.com"), Role: developer.RoleViewer})),
					"remove a member": errOf(c.RemoveMember(who.changes(), &developerv1.RemoveMemberRequest{
						Id: memberID(t, c, ana, "ana@example.com")})),
					"submit the profile": errOf(c.SubmitProfile(who.changes(), &developerv1.SubmitProfileRequest{FullName: "X"})),
					"delete the account": errOf(c.DeleteAccount(who.changes(), &developerv1.DeleteAccountRequest{})),
				}
			}
			for what, err := range denied(carol, developer.RoleViewer) {
				wantGRPC(t, "a viewer may not "+what, err, errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			}

			// A DEVELOPER manages the sandbox (apps, test shops), nothing
			// live, nobody.
			sandboxApp, err := c.CreateApp(bob.changes(), &developerv1.CreateAppRequest{Name: "Bob's sandbox", Environment: "sandbox",
				Scopes: []string{"orders:read"}})
			if err != nil {
				t.Fatalf("a developer cannot create a sandbox app: %v", err)
			}
			if _, err := c.RotateAppSecret(bob.changes(), &developerv1.RotateAppSecretRequest{Id: appID}); err != nil {
				t.Fatalf("a developer cannot rotate a sandbox app's secret: %v", err)
			}
			if _, err := c.AuthorizeTestShop(bob.changes(), &developerv1.AuthorizeTestShopRequest{Id: shop.GetId(),
				AppId: sandboxApp.GetData().GetApp().GetAppId()}); err != nil {
				t.Fatalf("a developer cannot authorise a test shop: %v", err)
			}
			_, err = c.CreateApp(bob.changes(), &developerv1.CreateAppRequest{Name: "Live", Environment: "production",
				Scopes: []string{"orders:read"}})
			wantGRPC(t, "a developer may not create a live app", err, errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			for _, what := range []string{"invite", "change a role", "remove a member", "submit the profile", "delete the account"} {
				wantGRPC(t, "a developer may not "+what, denied(bob, developer.RoleDeveloper)[what],
					errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			}

			// Only an OWNER changes roles; an ADMIN invites and removes
			// members below OWNER, and never deletes the account.
			bobID, carolID, anaID := memberID(t, c, ana, "bob@example.com"), memberID(t, c, ana, "carol@example.com"),
				memberID(t, c, ana, "ana@example.com")
			up, err := c.UpdateMember(ana.changes(), &developerv1.UpdateMemberRequest{Id: bobID, Role: developer.RoleAdmin})
			if err != nil || up.GetData().GetRole() != developer.RoleAdmin || up.GetData().GetEmail() != "bob@example.com" {
				t.Fatalf("owner's role change: %v (%v)", up.GetData(), err)
			}
			_, err = c.UpdateMember(ana.changes(), &developerv1.UpdateMemberRequest{Id: bobID, Role: "SUPERUSER"})
			wantGRPC(t, "an unknown role", err, apierr.ValidationError)
			_, err = c.UpdateMember(bob.changes(), &developerv1.UpdateMemberRequest{Id: carolID, Role: developer.RoleDeveloper})
			wantGRPC(t, "an admin may not change roles", err, errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			_, err = c.InviteMember(bob.changes(), &developerv1.InviteMemberRequest{Email: "dan@example.com", Role: developer.RoleOwner})
			wantGRPC(t, "an admin may not invite an owner", err, errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			_, err = c.RemoveMember(bob.changes(), &developerv1.RemoveMemberRequest{Id: anaID})
			wantGRPC(t, "an admin may not remove an owner", err, errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			_, err = c.DeleteAccount(bob.changes(), &developerv1.DeleteAccountRequest{})
			wantGRPC(t, "an admin may not delete the account", err, errorsv1.ErrorCode_ERROR_CODE_MEMBER_PERMISSION_DENIED)
			if _, err := c.InviteMember(bob.changes(), &developerv1.InviteMemberRequest{Email: "dan@example.com",
				Role: developer.RoleViewer}); err != nil {
				t.Fatalf("an admin cannot invite: %v", err)
			}
			if _, err := c.RemoveMember(bob.changes(), &developerv1.RemoveMemberRequest{Id: carolID}); err != nil {
				t.Fatalf("an admin cannot remove a viewer: %v", err)
			}
			_, err = c.GetSession(carol.reads(), &developerv1.GetSessionRequest{})
			wantGRPC(t, "a removed member's session", err, apierr.Unauthorized)
			_, err = c.RemoveMember(bob.changes(), &developerv1.RemoveMemberRequest{Id: "dmem_of_nobody"})
			wantGRPC(t, "an unknown member", err, apierr.NotFound)
			bobsOwnID := memberID(t, c, signIn(t, c, "bob@example.com", bobsOwn), "bob@example.com")
			_, err = c.UpdateMember(ana.changes(), &developerv1.UpdateMemberRequest{Id: bobsOwnID, Role: developer.RoleViewer})
			wantGRPC(t, "another account's member", err, apierr.NotFound)

			// The last OWNER stays: not demoted, not removed, does not leave.
			_, err = c.UpdateMember(ana.changes(), &developerv1.UpdateMemberRequest{Id: anaID, Role: developer.RoleAdmin})
			wantGRPC(t, "demoting the last owner", err, apierr.Conflict)
			_, err = c.RemoveMember(ana.changes(), &developerv1.RemoveMemberRequest{Id: anaID})
			wantGRPC(t, "the last owner leaving", err, apierr.Conflict)
			if _, err := c.UpdateMember(ana.changes(), &developerv1.UpdateMemberRequest{Id: bobID, Role: developer.RoleOwner}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.RemoveMember(ana.changes(), &developerv1.RemoveMemberRequest{Id: anaID}); err != nil {
				t.Fatalf("an owner beside another cannot leave: %v", err)
			}
			_, err = c.RemoveMember(bob.changes(), &developerv1.RemoveMemberRequest{Id: bobID})
			wantGRPC(t, "the last owner leaving", err, apierr.Conflict)

			// Every change is in the account's audit trail.
			entries, err := developer.NewEntStore(env.DB).AuditEntries(ctx, home)
			if err != nil {
				t.Fatal(err)
			}
			var actions []string
			for _, e := range entries {
				actions = append(actions, e.Action)
			}
			got := strings.Join(actions, " ")
			for _, want := range []string{"test_shop.created", "test_shop.authorized:" + appID, "member.invited", "member.joined",
				"member.role_changed:ADMIN", "member.role_changed:OWNER", "member.removed", "member.left"} {
				if !strings.Contains(got, want) {
					t.Fatalf("no %s in the audit trail: %s", want, got)
				}
			}
		})
	}
}

func errOf[T any](_ T, err error) error { return err }
