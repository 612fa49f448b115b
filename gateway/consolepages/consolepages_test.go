package consolepages

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
)

// fakeDeveloper answers GetSession with err, or a session, and records the
// metadata of every call; a page may call it from two goroutines at once.
// invitationsErr fails ListInvitations.
type fakeDeveloper struct {
	err            error
	invitationsErr error
	apps           []*developerv1.App
	shops          []*developerv1.TestShop
	members        []*developerv1.Member
	invited        []*developerv1.Invitation
	mu             sync.Mutex
	md             []metadata.MD
}

func (f *fakeDeveloper) record(ctx context.Context) {
	md, _ := metadata.FromOutgoingContext(ctx)
	f.mu.Lock()
	f.md = append(f.md, md)
	f.mu.Unlock()
}

func (f *fakeDeveloper) GetSession(ctx context.Context, _ *developerv1.GetSessionRequest, _ ...grpc.CallOption) (*developerv1.SessionResponse, error) {
	f.record(ctx)
	if f.err != nil {
		return nil, f.err
	}
	return &developerv1.SessionResponse{Data: &developerv1.Session{AccountId: "dacc_1", Role: "OWNER", CsrfToken: "csrf-<&>"}}, nil
}

func (f *fakeDeveloper) GetAccount(ctx context.Context, _ *developerv1.GetAccountRequest, _ ...grpc.CallOption) (*developerv1.AccountResponse, error) {
	f.record(ctx)
	return &developerv1.AccountResponse{Data: &developerv1.Account{Name: "<i>Ana</i>", DeveloperType: "BUSINESS"}}, nil
}

func (f *fakeDeveloper) ListApps(ctx context.Context, _ *developerv1.ListAppsRequest, _ ...grpc.CallOption) (*developerv1.ListAppsResponse, error) {
	f.record(ctx)
	return &developerv1.ListAppsResponse{Data: f.apps}, nil
}

func (f *fakeDeveloper) GetApp(ctx context.Context, in *developerv1.GetAppRequest, _ ...grpc.CallOption) (*developerv1.AppResponse, error) {
	f.record(ctx)
	for _, a := range f.apps {
		if a.GetAppId() == in.GetId() {
			return &developerv1.AppResponse{Data: a}, nil
		}
	}
	return nil, apierr.ToStatus(apierr.New(apierr.NotFound, "no such app")).Err()
}

func (f *fakeDeveloper) ListTestShops(ctx context.Context, _ *developerv1.ListTestShopsRequest, _ ...grpc.CallOption) (*developerv1.ListTestShopsResponse, error) {
	f.record(ctx)
	return &developerv1.ListTestShopsResponse{Data: f.shops}, nil
}

func (f *fakeDeveloper) ListMembers(ctx context.Context, _ *developerv1.ListMembersRequest, _ ...grpc.CallOption) (*developerv1.ListMembersResponse, error) {
	f.record(ctx)
	return &developerv1.ListMembersResponse{Data: f.members}, nil
}

func (f *fakeDeveloper) ListInvitations(ctx context.Context, _ *developerv1.ListInvitationsRequest, _ ...grpc.CallOption) (*developerv1.ListInvitationsResponse, error) {
	f.record(ctx)
	if f.invitationsErr != nil {
		return nil, f.invitationsErr
	}
	return &developerv1.ListInvitationsResponse{Data: f.invited}, nil
}

func newPages(t *testing.T, dev *fakeDeveloper, log *zap.Logger) *Pages {
	t.Helper()
	p, err := New(Config{
		Developer: dev,
		Metadata: func(_ http.ResponseWriter, r *http.Request) []string {
			c, _ := r.Cookie("mp_console")
			if c == nil {
				return []string{"x-mp-request-id", "req_1"}
			}
			return []string{"x-mp-request-id", "req_1", "x-mp-console-session", c.Value}
		},
		Scopes: []string{"catalog:read", "orders:read"},
		WriteError: func(w http.ResponseWriter, _ *http.Request, _ apierr.Code, msg string) {
			http.Error(w, msg, http.StatusNotFound)
		},
		Logger: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func serve(h http.HandlerFunc, target string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.AddCookie(&http.Cookie{Name: "mp_console", Value: "cs_session"})
	w := httptest.NewRecorder()
	h(w, r)
	return w
}

func TestPagesAnswerCoreFailures(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	for _, tc := range []struct {
		err    error
		status int
		says   string
	}{
		{apierr.ToStatus(apierr.New(apierr.Unauthorized, "no session")).Err(), http.StatusSeeOther, ""},
		{apierr.ToStatus(apierr.New(apierr.ServiceUnavailable, "core is down")).Err(), http.StatusServiceUnavailable, "briefly unavailable"},
		{status.Error(codes.Unavailable, "connection refused"), http.StatusServiceUnavailable, "briefly unavailable"},
		{status.Error(codes.Internal, "pq: relation dev_apps does not exist"), http.StatusInternalServerError, "Something went wrong"},
	} {
		p := newPages(t, &fakeDeveloper{err: tc.err}, zap.New(core))
		w := serve(p.Apps, "/console/apps")
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.says) {
			t.Fatalf("%v: %d %s, want %d", tc.err, w.Code, w.Body, tc.status)
		}
		if strings.Contains(w.Body.String(), "pq:") || strings.Contains(w.Body.String(), "refused") {
			t.Fatalf("internal error text on the page: %s", w.Body)
		}
		if tc.status == http.StatusSeeOther && w.Header().Get("Location") != "/console/signin?next=/console/apps" {
			t.Fatalf("redirect to %q", w.Header().Get("Location"))
		}
	}
	if logs.FilterMessage("console page: a call to core failed").Len() != 1 {
		t.Fatalf("the unexpected failure was not logged once: %v", logs.All())
	}
}

func TestPagesCarryTheSession(t *testing.T) {
	dev := &fakeDeveloper{apps: []*developerv1.App{{AppId: "app_1", Name: `<script>alert("x")</script>`, Environment: "sandbox", Active: true}}}
	p := newPages(t, dev, nil)
	w := serve(p.Apps, "/console/apps")
	if w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	for _, md := range dev.md {
		if got := md.Get("x-mp-console-session"); len(got) != 1 || got[0] != "cs_session" {
			t.Fatalf("a page call without the session: %v", md)
		}
		if _, ok := md["x-mp-request-id"]; !ok {
			t.Fatalf("a page call without the request id: %v", md)
		}
	}
	if len(dev.md) != 2 {
		t.Fatalf("%d calls, want the session and the apps", len(dev.md))
	}
	body := w.Body.String()
	if strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Fatalf("the app's name is not escaped: %s", body)
	}
	if !strings.Contains(body, `<meta name="csrf-token" content="csrf-&lt;&amp;&gt;">`) {
		t.Fatalf("no csrf meta: %s", body)
	}
	w = serve(p.App, "/console/apps/app_2")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "No such app") {
		t.Fatalf("unknown app: %d %s", w.Code, w.Body)
	}
	w = serve(p.Profile, "/console/profile")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "&lt;i&gt;Ana&lt;/i&gt;") || !strings.Contains(w.Body.String(), `name="registeredName"`) ||
		strings.Contains(w.Body.String(), `name="fullName"`) {
		t.Fatalf("profile: %d %s", w.Code, w.Body)
	}
}

func TestSignInNextStaysOnTheConsole(t *testing.T) {
	for next, want := range map[string]string{
		"/console/members":             "/console/members",
		"/console/apps/app_1?x=1":      "/console/apps/app_1?x=1",
		"//evil.example/console/":      "",
		"https://evil.example/":        "",
		"/console//evil.example":       "",
		"/console/\\evil.example":      "",
		"/open/v1/orders":              "",
		"javascript:alert(1)":          "",
		"/console/apps\r\nLocation: x": "",
	} {
		if got := consoleNext(next); got != want {
			t.Errorf("next %q: %q, want %q", next, got, want)
		}
	}
}

func TestNextParamKeepsTheQuery(t *testing.T) {
	if got := nextParam("/console/apps/app_1?a=1&b=x y"); got != "/console/apps/app_1%3Fa%3D1%26b%3Dx+y" {
		t.Fatalf("next %q", got)
	}
}

func TestMaintenancePage(t *testing.T) {
	p := newPages(t, &fakeDeveloper{}, nil)
	w := httptest.NewRecorder()
	p.Maintenance(w, "Database <b>upgrade</b>", time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC))
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "Database &lt;b&gt;upgrade&lt;/b&gt;") ||
		!strings.Contains(w.Body.String(), `datetime="2026-12-01T02:00:00Z"`) {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

// The members page lists the pending invitations with when each was sent
// and expires (Philippine time), escaped, and a revoke button on those the
// session's role may revoke: an owner's, all of them.
func TestMembersPageListsPendingInvitations(t *testing.T) {
	sent := time.Date(2026, 11, 27, 1, 5, 0, 0, time.UTC)
	dev := &fakeDeveloper{
		members: []*developerv1.Member{{Id: "dmem_1", Email: "ana@example.ph", Name: "Ana", Role: "OWNER"}},
		invited: []*developerv1.Invitation{
			{Id: "dinv_2", Email: "<b>ben</b>@example.ph", Role: "OWNER", InvitedAt: timestamppb.New(sent),
				ExpiresAt: timestamppb.New(sent.Add(7 * 24 * time.Hour))},
		},
	}
	w := serve(newPages(t, dev, nil).Members, "/console/members")
	body := w.Body.String()
	if w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, body)
	}
	for _, want := range []string{
		`<table id="invitations" class="stack">`,
		`<td data-label="Email">&lt;b&gt;ben&lt;/b&gt;@example.ph</td><td data-label="Role">OWNER</td>`,
		`<time datetime="2026-11-27T01:05:00Z">9:05 AM, 27 November 2026</time>`,
		`<time datetime="2026-12-04T01:05:00Z">9:05 AM, 4 December 2026</time>`,
		`data-invitation-id="dinv_2"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the members page lacks %s: %s", want, body)
		}
	}
	dev.invited = nil
	if body := serve(newPages(t, dev, nil).Members, "/console/members").Body.String(); !strings.Contains(body, "No pending invitations.") {
		t.Errorf("no pending invitation, and the page does not say so: %s", body)
	}
	// The two lists are read at once; either failing is the page's answer.
	dev.invitationsErr = status.Error(codes.Unavailable, "connection refused")
	if w := serve(newPages(t, dev, nil).Members, "/console/members"); w.Code != http.StatusServiceUnavailable ||
		!strings.Contains(w.Body.String(), "briefly unavailable") || strings.Contains(w.Body.String(), "ana@example.ph") {
		t.Errorf("the invitations failing: %d %s", w.Code, w.Body)
	}
}
