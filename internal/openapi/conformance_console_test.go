package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/developer/mail"
)

// committedConsole is the console's document, kept in step by CI.
const committedConsole = "../../gen/openapi/console.json"

// consoleOutbox keeps the console's messages.
type consoleOutbox struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (o *consoleOutbox) Send(_ context.Context, m mail.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, m)
	return nil
}

var verifyLink = regexp.MustCompile(`verify\?token=(\S+)`)

func (o *consoleOutbox) token(t *testing.T) string {
	t.Helper()
	return o.link(t, verifyLink)
}

// TestConsoleConformance checks the developer console's document against
// the platform's real answers, as TestConformance does for /open/v1: every
// console route is called with its example (the ids swapped for real
// ones) through a whole account's life, and with requests that draw its
// errors; every answer must validate against the document and carry the
// expected code. The two documents describe disjoint routes.
func TestConsoleConformance(t *testing.T) {
	box := &consoleOutbox{}
	env := testenv.Start(t, testenv.Options{Unlimited: true, ConsoleMail: box})
	served := getConsoleDocument(t, env.BaseURL)
	want, err := os.ReadFile(committedConsole)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served, want) {
		t.Fatalf("GET /console/v1/openapi.json differs from %s; run make openapi", committedConsole)
	}
	open := newChecker(t, getDocument(t, env.BaseURL), env)
	for _, op := range open.operations() {
		if strings.HasPrefix(op.path, "/console/") {
			t.Errorf("the /open/v1 document lists console route %s %s", op.method, op.path)
		}
	}
	c := newChecker(t, served, env)
	for _, op := range c.operations() {
		if !strings.HasPrefix(op.path, "/console/v1/") && !slices.Contains(op.op.Tags, "ConsolePage") {
			t.Errorf("the console document lists %s %s", op.method, op.path)
		}
		if op.op.RequestBody != nil && op.op.RequestBody.Value.Content.Get("application/json").Example == nil {
			t.Errorf("%s: request body without an example", op.id)
		}
	}
	ops := map[string]operation{}
	for _, op := range c.operations() {
		ops[op.id] = op
	}
	s := &consoleSession{c: c, ops: ops}

	s.expect(t, "GetConsoleDocument", nil, "", http.StatusOK, "")
	s.expect(t, "GetConsoleDocument", nil, "", http.StatusBadRequest, "VALIDATION_ERROR", "?no_such_parameter=1")

	s.pages(t, false)

	s.expect(t, "SignUp", nil, "", http.StatusCreated, "")
	s.expect(t, "SignUp", nil, "", http.StatusConflict, "EMAIL_ALREADY_EXISTS")
	s.expect(t, "SignUp", nil, `{"email":"b@example.ph","password":"correct horse battery","name":"B","developerType":"AGENCY"}`,
		http.StatusBadRequest, "INVALID_DEVELOPER_TYPE")
	s.expect(t, "ResendVerification", nil, "", http.StatusAccepted, "")
	s.expect(t, "ResendVerification", nil, `{"email":`, http.StatusBadRequest, "INVALID_JSON")
	s.expect(t, "Verify", nil, "", http.StatusBadRequest, "INVALID_VERIFICATION_TOKEN")
	token := box.token(t)
	s.expect(t, "Verify", nil, `{"token":"`+token+`"}`, http.StatusOK, "")
	s.expect(t, "Verify", nil, `{"token":"`+token+`"}`, http.StatusBadRequest, "VERIFICATION_LINK_USED")

	for _, id := range []string{"GetSession", "GetAccount", "ListApps", "ListTestShops", "ListMembers", "ListInvitations", "SignOut"} {
		s.expect(t, id, nil, "", http.StatusUnauthorized, "UNAUTHORIZED")
	}
	s.expect(t, "SignIn", nil, `{"email":"ana.cruz@partner.example.ph","password":"not the password!"}`, http.StatusUnauthorized, "UNAUTHORIZED")
	s.signIn(t)
	s.expect(t, "GetSession", nil, "", http.StatusOK, "")
	s.expect(t, "GetAccount", nil, "", http.StatusOK, "")
	s.expect(t, "SignOut", nil, "", http.StatusForbidden, "FORBIDDEN", "", "-")
	s.expect(t, "SignOut", nil, "", http.StatusOK, "")
	s.signIn(t)
	s.expect(t, "SubmitProfile", nil, "", http.StatusForbidden, "FORBIDDEN", "", "-")
	s.expect(t, "SubmitProfile", nil, "", http.StatusOK, "")
	s.expect(t, "SubmitProfile", nil, "", http.StatusConflict, "PROFILE_ALREADY_SUBMITTED")
	s.expect(t, "ListApps", nil, "", http.StatusOK, "")
	s.expect(t, "CreateApp", nil, "", http.StatusForbidden, "FORBIDDEN", "", "-")
	a := s.expect(t, "CreateApp", nil, "", http.StatusCreated, "")
	var made struct {
		Data struct {
			App struct {
				AppID string `json:"appId"`
			} `json:"app"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &made); err != nil || made.Data.App.AppID == "" {
		t.Fatalf("create: %v %s", err, a.body)
	}
	s.expect(t, "CreateApp", nil, `{"name":"Live","environment":"production"}`, http.StatusForbidden, "FORBIDDEN")
	real := map[string]string{"id": made.Data.App.AppID}
	s.pages(t, true)
	s.expect(t, "GetAppPage", real, "", http.StatusOK, "")
	s.testShopsAndMembers(t, box, made.Data.App.AppID)
	for _, id := range []string{"GetApp", "UpdateApp", "RotateAppSecret", "GetAppCredentials", "DeactivateApp"} {
		s.expect(t, id, nil, "", http.StatusNotFound, "APP_NOT_FOUND")
		s.expect(t, id, real, "", http.StatusOK, "")
	}
	s.expect(t, "DeleteAccount", nil, "", http.StatusConflict, "CANNOT_DELETE_ACCOUNT_WITH_APPS")
	s.expect(t, "DeleteApp", nil, "", http.StatusNotFound, "APP_NOT_FOUND")
	s.expect(t, "DeleteApp", real, "", http.StatusOK, "")
	s.expect(t, "DeleteAccount", nil, "", http.StatusForbidden, "FORBIDDEN", "", "-")
	a = s.expect(t, "DeleteAccount", nil, "", http.StatusOK, "")
	if set := a.header.Get("Set-Cookie"); !strings.Contains(set, "mp_console=;") || !strings.Contains(set, "Max-Age=0") {
		t.Fatalf("the account's deletion left the cookie: %q", set)
	}
	s.expect(t, "SignOut", nil, "", http.StatusUnauthorized, "UNAUTHORIZED")

	// Every console route answered its success status and an error, all
	// valid.
	for _, op := range c.operations() {
		if c.seen[op.id][op.successStatus()] == 0 {
			t.Errorf("%s: no %d answer was validated", op.id, op.successStatus())
		}
		if len(c.seen[op.id]) < 2 {
			t.Errorf("%s: no error answer was validated", op.id)
		}
	}
}

// consolePages are the console's pages (gateway-owned, HTML) by whether
// they need a session.
var consolePages = map[string]bool{
	"GetSignUpPage": false, "GetVerifyPage": false, "GetSignInPage": false, "GetInvitationPage": false,
	"GetAppsPage": true, "GetAppPage": true, "GetTestShopsPage": true, "GetMembersPage": true, "GetProfilePage": true,
}

// pages requests every console page with its example, signed in or out:
// a page that needs a session redirects to the sign-in without one; the
// example app is nobody's (the "no such app" page). Their assets are
// named by the pages.
func (s *consoleSession) pages(t *testing.T, signedIn bool) {
	t.Helper()
	index := s.expect(t, "GetIndexPage", nil, "", http.StatusSeeOther, "")
	if want := map[bool]string{false: "/console/signin", true: "/console/apps"}[signedIn]; index.header.Get("Location") != want {
		t.Fatalf("GET /console/: to %q, want %q", index.header.Get("Location"), want)
	}
	// A page refuses a query it does not take with a page of its own.
	s.expect(t, "GetIndexPage", nil, "", http.StatusBadRequest, "", "?no_such_parameter=1")
	var page answer
	for id, needsSession := range consolePages {
		status := http.StatusOK
		switch {
		case needsSession && !signedIn:
			status = http.StatusSeeOther
		case id == "GetAppPage":
			status = http.StatusNotFound
		}
		if a := s.expect(t, id, nil, "", status, ""); status == http.StatusOK {
			page = a
		}
		s.expect(t, id, nil, "", http.StatusBadRequest, "", "?no_such_parameter=1")
	}
	if signedIn {
		return
	}
	s.expect(t, "GetAsset", nil, "", http.StatusNotFound, "NOT_FOUND")
	m := regexp.MustCompile(`/console/assets/([^"]+)"`).FindSubmatch(page.body)
	if m == nil {
		t.Fatalf("the page links no asset: %s", page.body)
	}
	s.expect(t, "GetAsset", map[string]string{"name": string(m[1])}, "", http.StatusOK, "")
}

// testShopsAndMembers runs the test shops' and members' routes in the
// signed-in example account, whose sandbox app is appID: a test shop
// authorised for the app, a second person invited, accepting and limited
// by the role, the role changed and the member removed. The example's
// person is signed in again at the end.
func (s *consoleSession) testShopsAndMembers(t *testing.T, box *consoleOutbox, appID string) {
	t.Helper()
	s.expect(t, "ListTestShops", nil, "", http.StatusOK, "")
	s.expect(t, "CreateTestShop", nil, "", http.StatusForbidden, "FORBIDDEN", "", "-")
	a := s.expect(t, "CreateTestShop", nil, "", http.StatusCreated, "")
	var shop struct {
		Data struct {
			Shop struct {
				ID string `json:"id"`
			} `json:"shop"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &shop); err != nil || shop.Data.Shop.ID == "" {
		t.Fatalf("test shop: %v %s", err, a.body)
	}
	s.expect(t, "AuthorizeTestShop", nil, "", http.StatusNotFound, "NOT_FOUND")
	shopID := map[string]string{"id": shop.Data.Shop.ID}
	s.expect(t, "AuthorizeTestShop", shopID, "", http.StatusNotFound, "APP_NOT_FOUND")
	s.expect(t, "AuthorizeTestShop", shopID, `{"appId":"`+appID+`"}`, http.StatusOK, "")

	s.expect(t, "ListMembers", nil, "", http.StatusOK, "")
	s.expect(t, "InviteMember", nil, `{"email":"ana.cruz@partner.example.ph","role":"ADMIN"}`, http.StatusConflict, "CONFLICT")
	s.expect(t, "InviteMember", nil, "", http.StatusCreated, "")
	invitation := box.link(t, invitationLink)
	// A second invitation, pending until revoked.
	s.expect(t, "InviteMember", nil, `{"email":"carla.diaz@partner.example.ph","role":"VIEWER"}`, http.StatusCreated, "")
	a = s.expect(t, "ListInvitations", nil, "", http.StatusOK, "")
	var invitations struct {
		Data []struct {
			ID    string `json:"id"`
			Email string `json:"email"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &invitations); err != nil || len(invitations.Data) != 2 {
		t.Fatalf("pending invitations: %v %s", err, a.body)
	}
	carla := map[string]string{}
	for _, inv := range invitations.Data {
		if inv.Email == "carla.diaz@partner.example.ph" {
			carla["id"] = inv.ID
		}
	}
	if carla["id"] == "" {
		t.Fatalf("the second invitation is not pending: %s", a.body)
	}
	s.expect(t, "RevokeInvitation", nil, "", http.StatusNotFound, "NOT_FOUND")
	s.expect(t, "RevokeInvitation", carla, "", http.StatusOK, "")
	s.expect(t, "RevokeInvitation", carla, "", http.StatusConflict, "CONFLICT")
	// The invitee signs up, verifies and signs in, then accepts.
	const invitee = `{"email":"ben.reyes@partner.example.ph","password":"correct horse battery staple"}`
	s.expect(t, "SignUp", nil, `{"email":"ben.reyes@partner.example.ph","password":"correct horse battery staple","name":"Ben Reyes","developerType":"INDIVIDUAL"}`,
		http.StatusCreated, "")
	s.expect(t, "Verify", nil, `{"token":"`+box.token(t)+`"}`, http.StatusOK, "")
	s.signInAs(t, invitee)
	s.expect(t, "AcceptInvitation", nil, "", http.StatusBadRequest, "INVALID_VERIFICATION_TOKEN")
	s.expect(t, "AcceptInvitation", nil, `{"token":"`+invitation+`"}`, http.StatusOK, "")
	a = s.expect(t, "ListMembers", nil, "", http.StatusOK, "")
	var members struct {
		Data []struct {
			ID    string `json:"id"`
			Email string `json:"email"`
			Role  string `json:"role"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &members); err != nil {
		t.Fatal(err)
	}
	var ben string
	for _, m := range members.Data {
		if m.Email == "ben.reyes@partner.example.ph" && m.Role == "DEVELOPER" {
			ben = m.ID
		}
	}
	if len(members.Data) != 2 || ben == "" {
		t.Fatalf("members after the acceptance: %s", a.body)
	}
	member := map[string]string{"id": ben}
	s.expect(t, "UpdateMember", member, "", http.StatusForbidden, "MEMBER_PERMISSION_DENIED")

	s.signIn(t)
	s.expect(t, "UpdateMember", nil, "", http.StatusNotFound, "NOT_FOUND")
	s.expect(t, "UpdateMember", member, "", http.StatusOK, "")
	s.expect(t, "RemoveMember", nil, "", http.StatusNotFound, "NOT_FOUND")
	s.expect(t, "RemoveMember", member, "", http.StatusOK, "")
}

var invitationLink = regexp.MustCompile(`invitations/accept\?token=(\S+)`)

// link is the token of pattern's link in the last message sent.
func (o *consoleOutbox) link(t *testing.T, pattern *regexp.Regexp) string {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.sent) == 0 {
		t.Fatal("no message sent")
	}
	m := pattern.FindStringSubmatch(o.sent[len(o.sent)-1].Text)
	if m == nil {
		t.Fatalf("no link in %q", o.sent[len(o.sent)-1].Text)
	}
	token, err := url.QueryUnescape(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// signIn signs the example's person in and keeps the cookie and the CSRF
// token.
func (s *consoleSession) signIn(t *testing.T) {
	t.Helper()
	s.signInAs(t, "")
}

// signInAs signs a person in with body (the example's person when empty).
func (s *consoleSession) signInAs(t *testing.T, body string) {
	t.Helper()
	s.cookie, s.csrf = "", ""
	a := s.expect(t, "SignIn", nil, body, http.StatusOK, "")
	var signedIn struct {
		Data struct {
			CSRFToken string `json:"csrfToken"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &signedIn); err != nil {
		t.Fatal(err)
	}
	for _, ck := range (&http.Response{Header: a.header}).Cookies() {
		if ck.Name == "mp_console" {
			s.cookie = ck.Value
		}
	}
	if s.cookie == "" || signedIn.Data.CSRFToken == "" {
		t.Fatalf("sign-in set no cookie or CSRF token: %v %s", a.header, a.body)
	}
	s.csrf = signedIn.Data.CSRFToken
}

func getConsoleDocument(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := http.Get(base + "/console/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /console/v1/openapi.json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return body
}

// consoleSession sends console requests as one browser: its cookie and
// CSRF token once signed in.
type consoleSession struct {
	c      *checker
	ops    map[string]operation
	cookie string
	csrf   string
}

// expect sends operation id's example (ids replaces path parameters; body,
// when set, the example body), validates the answer and checks its status
// and code. extra is an optional query ("?a=b") and an optional CSRF token
// ("-" for none).
func (s *consoleSession) expect(t *testing.T, id string, ids map[string]string, body string, status int, code string, extra ...string) answer {
	t.Helper()
	op, ok := s.ops[id]
	if !ok {
		t.Fatalf("no operation %s in the console document", id)
	}
	req := s.c.exampleRequest(op, ids)
	if body != "" {
		req.Body = []byte(body)
	}
	// The example's own request conforms; a body of the test's own may
	// not (it draws an error).
	valid := body == ""
	target := s.c.env.BaseURL + req.Path
	if len(extra) > 0 && extra[0] != "" {
		target += extra[0]
		valid = false
	}
	hr, err := http.NewRequest(req.Method, target, bytes.NewReader(req.Body))
	if err != nil {
		t.Fatal(err)
	}
	if req.Body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if s.cookie != "" {
		hr.AddCookie(&http.Cookie{Name: "mp_console", Value: s.cookie})
	}
	csrf := s.csrf
	if len(extra) > 1 {
		csrf = strings.TrimPrefix(extra[1], "-")
	}
	if csrf != "" && req.Method != http.MethodGet {
		hr.Header.Set("X-CSRF-Token", csrf)
	}
	a := s.c.send(t, op, hr, req.Body, valid)
	if a.status != status || a.code != code {
		t.Fatalf("%s: %d %s, want %d %s: %s", id, a.status, a.code, status, code, a.body)
	}
	if a.header.Get(sdk.HeaderRequestID) == "" {
		t.Fatalf("%s: no %s", id, sdk.HeaderRequestID)
	}
	return a
}
