package gateway_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/developer"
)

var invitationToken = regexp.MustCompile(`invitations/accept\?token=([^\s]+)`)

// lastInvitation is the token of the last invitation link mailed to an
// address.
func (m *consoleMail) lastInvitation(t *testing.T, to string) string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.sent) - 1; i >= 0; i-- {
		if m.sent[i].To != to {
			continue
		}
		if match := invitationToken.FindStringSubmatch(m.sent[i].Text); match != nil {
			token, err := url.QueryUnescape(match[1])
			if err != nil {
				t.Fatal(err)
			}
			return token
		}
	}
	t.Fatalf("no invitation to %s", to)
	return ""
}

type consoleTestShop struct {
	ID       string `json:"id"`
	ShopName string `json:"shopName"`
	Username string `json:"username"`
}

type consoleMember struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

type consoleSessionView struct {
	AccountID string `json:"accountId"`
	Email     string `json:"email"`
	Role      string `json:"role"`
	CSRFToken string `json:"csrfToken"`
}

// A partner makes a test shop, authorises it for a sandbox app and calls
// the Open API with the app's credentials file and the shop's tokens; then
// invites a colleague, who joins and is held to the role, through the
// console's JSON API on the real gateway and core.
func TestConsoleTestShopsAndMembers(t *testing.T) {
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			box := &consoleMail{}
			env := testenv.Start(t, testenv.Options{Postgres: pg, ConsoleMail: box})
			testConsoleTestShopsAndMembers(t, env, box)
		})
	}
}

func testConsoleTestShopsAndMembers(t *testing.T, env *testenv.Env, box *consoleMail) {
	ctx := context.Background()
	ana, accountID := signedUp(t, env, box, "ana@example.ph")

	a := ana.call(t, http.MethodPost, "/console/v1/apps",
		`{"name":"Shop sync","environment":"sandbox","scopes":["catalog:read","orders:read"]}`)
	wantStatus(t, "create app", a, http.StatusCreated, "")
	var made struct {
		App consoleApp `json:"app"`
	}
	a.data(t, &made)

	// A test shop: its login's password and fixed code, shown once.
	a = ana.call(t, http.MethodPost, "/console/v1/test-shops", `{"shopName":"Cruz Gadgets"}`)
	wantStatus(t, "create test shop", a, http.StatusCreated, "")
	var shop struct {
		Shop     consoleTestShop `json:"shop"`
		Password string          `json:"password"`
		OTP      string          `json:"otp"`
	}
	a.data(t, &shop)
	if shop.Shop.ID == "" || shop.Shop.ShopName != "Cruz Gadgets" || shop.Shop.Username == "" || shop.Password == "" || shop.OTP == "" {
		t.Fatalf("test shop: %s", a.raw)
	}
	if a.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("an answer with a password has Cache-Control %q", a.header.Get("Cache-Control"))
	}
	a = ana.call(t, http.MethodGet, "/console/v1/test-shops", "")
	wantStatus(t, "list test shops", a, http.StatusOK, "")
	var shops []consoleTestShop
	a.data(t, &shops)
	if len(shops) != 1 || shops[0] != shop.Shop || bytes.Contains(a.raw, []byte(shop.Password)) ||
		bytes.Contains(a.raw, []byte(`"otp"`)) {
		t.Fatalf("test shops: %s", a.raw)
	}

	// Authorised for the sandbox app in one step: the answer holds the
	// grant's tokens.
	shopPath := "/console/v1/test-shops/" + shop.Shop.ID + "/authorize"
	wantStatus(t, "authorise for no app", ana.call(t, http.MethodPost, shopPath, `{"appId":"app_unknown"}`),
		http.StatusNotFound, "APP_NOT_FOUND")
	wantStatus(t, "authorise no test shop", ana.call(t, http.MethodPost, "/console/v1/test-shops/"+env.Creds.Sellers[0].SellerID+"/authorize",
		`{"appId":"`+made.App.AppID+`"}`), http.StatusNotFound, "NOT_FOUND")
	a = ana.call(t, http.MethodPost, shopPath, `{"appId":"`+made.App.AppID+`"}`)
	wantStatus(t, "authorise", a, http.StatusOK, "")
	var tokens struct {
		SellerID     string   `json:"sellerId"`
		AppID        string   `json:"appId"`
		AccessToken  string   `json:"accessToken"`
		RefreshToken string   `json:"refreshToken"`
		Scopes       []string `json:"scopes"`
	}
	a.data(t, &tokens)
	if tokens.SellerID != shop.Shop.ID || tokens.AppID != made.App.AppID || tokens.AccessToken == "" || tokens.RefreshToken == "" ||
		!slices.Equal(tokens.Scopes, []string{"catalog:read", "orders:read"}) {
		t.Fatalf("tokens: %s", a.raw)
	}

	// The app's credentials file and the shop's tokens make a signed call
	// for the test shop, which holds the seed's orders.
	a = ana.call(t, http.MethodGet, "/console/v1/apps/"+made.App.AppID+"/credentials", "")
	if a.status != http.StatusOK {
		t.Fatalf("credentials: %d %s", a.status, a.raw)
	}
	file := filepath.Join(t.TempDir(), "credentials.json")
	if err := os.WriteFile(file, a.raw, 0o600); err != nil {
		t.Fatal(err)
	}
	creds, err := sdk.LoadCredentials(file)
	if err != nil {
		t.Fatal(err)
	}
	app, err := creds.App(made.App.AppID)
	if err != nil {
		t.Fatal(err)
	}
	partner, err := sdk.New(sdk.Config{BaseURL: env.BaseURL, ClientID: app.ClientID, ClientSecret: app.ClientSecret, Now: env.Clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := partner.WithSeller(tokens.SellerID, tokens.AccessToken).Do(ctx, http.MethodGet, "/open/v1/orders", nil)
	if err != nil || resp.Status != http.StatusOK || !bytes.Contains(resp.Body, []byte(`"orderId"`)) {
		t.Fatalf("signed call for the test shop: %v %+v", err, resp)
	}

	// Another account's test shop does not exist for it.
	other, _ := signedUp(t, env, box, "carlo@example.ph")
	a = other.call(t, http.MethodPost, "/console/v1/apps", `{"name":"Mine","environment":"sandbox","scopes":["orders:read"]}`)
	wantStatus(t, "another account's app", a, http.StatusCreated, "")
	var theirs struct {
		App consoleApp `json:"app"`
	}
	a.data(t, &theirs)
	wantStatus(t, "another account's test shop", other.call(t, http.MethodPost, shopPath, `{"appId":"`+theirs.App.AppID+`"}`),
		http.StatusNotFound, "NOT_FOUND")
	wantStatus(t, "another account's app for the shop", ana.call(t, http.MethodPost, shopPath, `{"appId":"`+theirs.App.AppID+`"}`),
		http.StatusNotFound, "APP_NOT_FOUND")
	a = other.call(t, http.MethodGet, "/console/v1/test-shops", "")
	wantStatus(t, "another account's test shops", a, http.StatusOK, "")
	if bytes.Contains(a.raw, []byte(shop.Shop.ID)) {
		t.Fatalf("another account lists the test shop: %s", a.raw)
	}

	// A colleague is invited as a viewer, signs up, verifies, signs in and
	// accepts: the session moves to the inviting account.
	a = ana.call(t, http.MethodPost, "/console/v1/members", `{"email":"ben@example.ph","role":"VIEWER"}`)
	wantStatus(t, "invite", a, http.StatusCreated, "")
	var inv struct {
		ID    string `json:"id"`
		Email string `json:"email"`
		Role  string `json:"role"`
	}
	a.data(t, &inv)
	if inv.ID == "" || inv.Email != "ben@example.ph" || inv.Role != developer.RoleViewer {
		t.Fatalf("invitation: %s", a.raw)
	}
	invitation := box.lastInvitation(t, "ben@example.ph")
	ben, benAccount := signedUp(t, env, box, "ben@example.ph")
	wantStatus(t, "accept an unknown invitation", ben.call(t, http.MethodPost, "/console/v1/invitations/accept", `{"token":"nope"}`),
		http.StatusBadRequest, "INVALID_VERIFICATION_TOKEN")
	wantStatus(t, "accept as another person", other.call(t, http.MethodPost, "/console/v1/invitations/accept", `{"token":"`+invitation+`"}`),
		http.StatusForbidden, "FORBIDDEN")
	a = ben.call(t, http.MethodPost, "/console/v1/invitations/accept", `{"token":"`+invitation+`"}`)
	wantStatus(t, "accept", a, http.StatusOK, "")
	var joined consoleSessionView
	a.data(t, &joined)
	if joined.AccountID != accountID || joined.Role != developer.RoleViewer || joined.CSRFToken != ben.csrf {
		t.Fatalf("accepted: %s", a.raw)
	}
	a = ben.call(t, http.MethodGet, "/console/v1/session", "")
	wantStatus(t, "session after accepting", a, http.StatusOK, "")
	var now consoleSessionView
	a.data(t, &now)
	if now.AccountID != accountID || now.AccountID == benAccount || now.Email != "ben@example.ph" || now.Role != developer.RoleViewer {
		t.Fatalf("session after accepting: %s", a.raw)
	}
	wantStatus(t, "accept twice", ben.call(t, http.MethodPost, "/console/v1/invitations/accept", `{"token":"`+invitation+`"}`),
		http.StatusBadRequest, "VERIFICATION_LINK_USED")

	a = ana.call(t, http.MethodGet, "/console/v1/members", "")
	wantStatus(t, "members", a, http.StatusOK, "")
	var members []consoleMember
	a.data(t, &members)
	var benID, anaID string
	for _, m := range members {
		switch m.Email {
		case "ben@example.ph":
			benID = m.ID
		case "ana@example.ph":
			anaID = m.ID
		}
	}
	if len(members) != 2 || benID == "" || anaID == "" {
		t.Fatalf("members: %s", a.raw)
	}

	// A viewer reads only.
	wantStatus(t, "viewer reads test shops", ben.call(t, http.MethodGet, "/console/v1/test-shops", ""), http.StatusOK, "")
	wantStatus(t, "viewer reads apps", ben.call(t, http.MethodGet, "/console/v1/apps", ""), http.StatusOK, "")
	wantStatus(t, "viewer creates a test shop", ben.call(t, http.MethodPost, "/console/v1/test-shops", `{"shopName":"Ben's"}`),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")
	wantStatus(t, "viewer creates an app", ben.call(t, http.MethodPost, "/console/v1/apps", `{"name":"b","environment":"sandbox"}`),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")
	wantStatus(t, "viewer authorises", ben.call(t, http.MethodPost, shopPath, `{"appId":"`+made.App.AppID+`"}`),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")

	// Made a developer: the sandbox, not live apps, not members.
	a = ana.call(t, http.MethodPut, "/console/v1/members/"+benID, `{"role":"DEVELOPER"}`)
	wantStatus(t, "change role", a, http.StatusOK, "")
	var changed consoleMember
	a.data(t, &changed)
	if changed.ID != benID || changed.Role != developer.RoleDeveloper {
		t.Fatalf("changed: %s", a.raw)
	}
	wantStatus(t, "developer creates a test shop", ben.call(t, http.MethodPost, "/console/v1/test-shops", `{"shopName":"Reyes Home"}`),
		http.StatusCreated, "")
	wantStatus(t, "developer authorises", ben.call(t, http.MethodPost, shopPath, `{"appId":"`+made.App.AppID+`"}`), http.StatusOK, "")
	wantStatus(t, "developer creates a live app", ben.call(t, http.MethodPost, "/console/v1/apps", `{"name":"Live","environment":"production"}`),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")
	wantStatus(t, "developer invites", ben.call(t, http.MethodPost, "/console/v1/members", `{"email":"dana@example.ph","role":"VIEWER"}`),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")
	wantStatus(t, "developer changes a role", ben.call(t, http.MethodPut, "/console/v1/members/"+anaID, `{"role":"VIEWER"}`),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")
	wantStatus(t, "developer removes the owner", ben.call(t, http.MethodDelete, "/console/v1/members/"+anaID, ""),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")
	wantStatus(t, "developer deletes the account", ben.call(t, http.MethodDelete, "/console/v1/account", ""),
		http.StatusForbidden, "MEMBER_PERMISSION_DENIED")

	// The account's last owner can neither leave nor lose the role.
	wantStatus(t, "last owner leaves", ana.call(t, http.MethodDelete, "/console/v1/members/"+anaID, ""), http.StatusConflict, "CONFLICT")
	wantStatus(t, "last owner steps down", ana.call(t, http.MethodPut, "/console/v1/members/"+anaID, `{"role":"ADMIN"}`),
		http.StatusConflict, "CONFLICT")
	wantStatus(t, "another account's member", other.call(t, http.MethodDelete, "/console/v1/members/"+benID, ""),
		http.StatusNotFound, "NOT_FOUND")

	// Removed, the colleague's session in the account ends.
	wantStatus(t, "remove", ana.call(t, http.MethodDelete, "/console/v1/members/"+benID, ""), http.StatusOK, "")
	wantStatus(t, "removed member's session", ben.call(t, http.MethodGet, "/console/v1/session", ""), http.StatusUnauthorized, "UNAUTHORIZED")
	a = ana.call(t, http.MethodGet, "/console/v1/members", "")
	wantStatus(t, "members after the removal", a, http.StatusOK, "")
	members = nil
	a.data(t, &members)
	if len(members) != 1 || members[0].ID != anaID {
		t.Fatalf("members after the removal: %s", a.raw)
	}

	// The account's limit: 5 test shops by default, the developer's one
	// counted.
	for i := range developer.DefaultTestShops - 2 {
		wantStatus(t, "test shop", ana.call(t, http.MethodPost, "/console/v1/test-shops", `{"shopName":"Shop `+string(rune('a'+i))+`"}`),
			http.StatusCreated, "")
	}
	wantStatus(t, "test shop over the limit", ana.call(t, http.MethodPost, "/console/v1/test-shops", `{"shopName":"One more"}`),
		http.StatusUnprocessableEntity, "TEST_SHOP_LIMIT_REACHED")
	wantStatus(t, "another account under its own limit", other.call(t, http.MethodPost, "/console/v1/test-shops", `{"shopName":"Carlo's"}`),
		http.StatusCreated, "")

	// Every member and test shop change is audited, with its address.
	entries, err := developer.NewEntStore(env.DB).AuditEntries(ctx, accountID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Action] = true
		if e.ClientIP == "" || e.UserID == "" {
			t.Fatalf("audit entry without its address or person: %+v", e)
		}
	}
	for _, want := range []string{"test_shop.created", "test_shop.authorized:" + made.App.AppID, "member.invited",
		"member.joined", "member.role_changed:DEVELOPER", "member.removed"} {
		if !seen[want] {
			t.Errorf("no audit entry %s in %v", want, seen)
		}
	}
}
