package developer_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer"
	"github.com/mallplatform/partnerapi/services/developer/mail"
)

var start = time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)

const password = "correct horse battery"

// outbox keeps what the service mailed.
type outbox struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (o *outbox) Send(_ context.Context, m mail.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, m)
	return nil
}

// lastToken is the token of the last link mailed to an address.
func (o *outbox) lastToken(t *testing.T, to string) string {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.sent) - 1; i >= 0; i-- {
		m := o.sent[i]
		if m.To != to {
			continue
		}
		_, rest, ok := strings.Cut(m.Text, "https://console.example/console/verify?token=")
		if !ok {
			t.Fatalf("no link in %q", m.Text)
		}
		tok, err := url.QueryUnescape(strings.Fields(rest)[0])
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	t.Fatalf("nothing mailed to %s", to)
	return ""
}

func (o *outbox) count() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.sent)
}

type fixture struct {
	d     *db.DB
	svc   *developer.Service
	clock *clock.Manual
	mail  *outbox
}

func newFixture(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	c := clock.NewManual(start)
	o := &outbox{}
	svc, err := developer.NewService(developer.Config{Store: developer.NewEntStore(d), Clock: c, Business: c, Mail: o,
		ConsoleURL: "https://console.example/console/", PasswordCost: auth.TestPasswordCost})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{d: d, svc: svc, clock: c, mail: o}
}

func wantCode(t *testing.T, err error, want apierr.Code) {
	t.Helper()
	if got := apierr.CodeOf(err); err == nil || got != want {
		t.Fatalf("error %v (code %v), want %v", err, got, want)
	}
}

var caller = developer.Caller{ClientIP: "203.0.113.7"}

func (f *fixture) signUp(t *testing.T, email, typ string) developer.SignedUp {
	t.Helper()
	out, err := f.svc.SignUp(context.Background(), caller,
		developer.SignUp{Email: email, Password: password, Name: "Ana Cruz", DeveloperType: typ})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// signIn signs in and resolves the session as a mutating call would.
func (f *fixture) signIn(t *testing.T, email string) developer.Actor {
	t.Helper()
	ctx := context.Background()
	in, err := f.svc.SignIn(ctx, caller, email, password, "")
	if err != nil {
		t.Fatal(err)
	}
	a, err := f.svc.Authenticate(ctx, in.Token, in.CSRFToken, true)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (f *fixture) verify(t *testing.T, email string) {
	t.Helper()
	if err := f.svc.Verify(context.Background(), f.mail.lastToken(t, email)); err != nil {
		t.Fatal(err)
	}
}

func TestSignUp(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		out := f.signUp(t, "  Ana@Example.COM ", developer.TypeIndividual)
		if out.Email != "ana@example.com" || !strings.HasPrefix(out.AccountID, "acc_") {
			t.Fatalf("sign-up answered %+v", out)
		}
		if f.mail.count() != 1 {
			t.Fatalf("%d messages, want the verification link", f.mail.count())
		}
		entries, err := f.svc.AuditEntries(ctx, out.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Action != "account.created" || entries[0].ClientIP != caller.ClientIP ||
			entries[0].UserID == "" || !entries[0].CreatedAt.Equal(start) {
			t.Fatalf("audit %+v", entries)
		}

		t.Run("an address already registered, in any case", func(t *testing.T) {
			_, err := f.svc.SignUp(ctx, caller, developer.SignUp{Email: "ANA@example.com", Password: password,
				Name: "Other", DeveloperType: developer.TypeBusiness})
			wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_EMAIL_ALREADY_EXISTS)
		})
		t.Run("an address an operator's account has", func(t *testing.T) {
			d.Ent.DeveloperAccount.Create().SetID("acct_ops").SetName("Ops").SetEmail("ops@example.com").ExecX(ctx)
			_, err := f.svc.SignUp(ctx, caller, developer.SignUp{Email: "ops@example.com", Password: password,
				Name: "Ops", DeveloperType: developer.TypeBusiness})
			wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_EMAIL_ALREADY_EXISTS)
		})
		t.Run("another developer type", func(t *testing.T) {
			_, err := f.svc.SignUp(ctx, caller, developer.SignUp{Email: "b@example.com", Password: password,
				Name: "B", DeveloperType: "GOVERNMENT"})
			wantCode(t, err, errorsv1.ErrorCode_ERROR_CODE_INVALID_DEVELOPER_TYPE)
		})
		t.Run("a password under 12 characters", func(t *testing.T) {
			_, err := f.svc.SignUp(ctx, caller, developer.SignUp{Email: "b@example.com", Password: "elevenchars",
				Name: "B", DeveloperType: developer.TypeBusiness})
			wantCode(t, err, apierr.ValidationError)
		})
	})
}

func TestVerificationLinks(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.signUp(t, "ana@example.com", developer.TypeIndividual)
		first := f.mail.lastToken(t, "ana@example.com")

		wantCode(t, f.svc.Verify(ctx, "no-such-token"), errorsv1.ErrorCode_ERROR_CODE_INVALID_VERIFICATION_TOKEN)

		// A new link ends the first.
		if err := f.svc.ResendVerification(ctx, "ANA@example.com"); err != nil {
			t.Fatal(err)
		}
		second := f.mail.lastToken(t, "ana@example.com")
		wantCode(t, f.svc.Verify(ctx, first), errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_LINK_USED)

		// 24 hours on: expired.
		f.clock.Advance(developer.VerificationTTL)
		wantCode(t, f.svc.Verify(ctx, second), errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_TOKEN_EXPIRED)

		if err := f.svc.ResendVerification(ctx, "ana@example.com"); err != nil {
			t.Fatal(err)
		}
		third := f.mail.lastToken(t, "ana@example.com")
		if err := f.svc.Verify(ctx, third); err != nil {
			t.Fatal(err)
		}
		wantCode(t, f.svc.Verify(ctx, third), errorsv1.ErrorCode_ERROR_CODE_VERIFICATION_LINK_USED)
		if a := f.signIn(t, "ana@example.com"); !a.User.Verified() {
			t.Fatal("the address is not verified after its link")
		}

		// Nothing to send: a verified address, an unknown one. Same answer.
		sent := f.mail.count()
		if err := f.svc.ResendVerification(ctx, "ana@example.com"); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.ResendVerification(ctx, "nobody@example.com"); err != nil {
			t.Fatal(err)
		}
		if f.mail.count() != sent {
			t.Fatal("a link was sent with nothing to verify")
		}
	})
}

func TestSessions(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		up := f.signUp(t, "ana@example.com", developer.TypeIndividual)

		_, err := f.svc.SignIn(ctx, caller, "ana@example.com", "wrong password!", "")
		wantCode(t, err, apierr.Unauthorized)
		_, err = f.svc.SignIn(ctx, caller, "nobody@example.com", password, "")
		wantCode(t, err, apierr.Unauthorized)
		_, err = f.svc.SignIn(ctx, caller, "ana@example.com", password, "acct_someone_else")
		wantCode(t, err, apierr.Forbidden)

		in, err := f.svc.SignIn(ctx, caller, "Ana@Example.com", password, "")
		if err != nil {
			t.Fatal(err)
		}
		if in.Actor.Member.AccountID != up.AccountID || in.Actor.Member.Role != developer.RoleOwner || in.CSRFToken == "" {
			t.Fatalf("signed in %+v", in.Actor)
		}
		if in.CSRFToken != developer.CSRFToken(in.Token) || strings.Contains(in.CSRFToken, in.Token) {
			t.Fatal("the CSRF token is not the session's derived token")
		}

		t.Run("reads need no CSRF token, changes do", func(t *testing.T) {
			if _, err := f.svc.Authenticate(ctx, in.Token, "", false); err != nil {
				t.Fatal(err)
			}
			_, err := f.svc.Authenticate(ctx, in.Token, "", true)
			wantCode(t, err, apierr.Forbidden)
			_, err = f.svc.Authenticate(ctx, in.Token, developer.CSRFToken("another session"), true)
			wantCode(t, err, apierr.Forbidden)
		})
		t.Run("the session names its person and membership", func(t *testing.T) {
			a, err := f.svc.Authenticate(ctx, in.Token, "", false)
			if err != nil {
				t.Fatal(err)
			}
			if a.Session.ID != in.Actor.Session.ID || a.User.ID != in.Actor.User.ID || a.User.Email != "ana@example.com" ||
				a.User.Name != "Ana Cruz" || a.User.PasswordHash == "" || a.User.Verified() != in.Actor.User.Verified() ||
				a.Member != in.Actor.Member {
				t.Fatalf("authenticated %+v, signed in %+v", a, in.Actor)
			}
		})
		t.Run("no session, an unknown one", func(t *testing.T) {
			_, err := f.svc.Authenticate(ctx, "", "", false)
			wantCode(t, err, apierr.Unauthorized)
			_, err = f.svc.Authenticate(ctx, "not-a-session", "", false)
			wantCode(t, err, apierr.Unauthorized)
		})
		t.Run("12 hours idle ends it; a call moves the idle time", func(t *testing.T) {
			f.clock.Advance(developer.SessionIdle - time.Minute)
			if _, err := f.svc.Authenticate(ctx, in.Token, "", false); err != nil {
				t.Fatal(err)
			}
			f.clock.Advance(developer.SessionIdle - time.Minute)
			if _, err := f.svc.Authenticate(ctx, in.Token, "", false); err != nil {
				t.Fatalf("a session in use ended: %v", err)
			}
			f.clock.Advance(developer.SessionIdle)
			_, err := f.svc.Authenticate(ctx, in.Token, "", false)
			wantCode(t, err, apierr.Unauthorized)
		})
		t.Run("a membership gone ends its sessions", func(t *testing.T) {
			other := f.signUp(t, "ben@example.com", developer.TypeIndividual)
			b, err := f.svc.SignIn(ctx, caller, "ben@example.com", password, other.AccountID)
			if err != nil {
				t.Fatal(err)
			}
			// The row alone, behind the service's back: the session's
			// read must notice the membership missing by itself.
			if _, err := d.SQL.ExecContext(ctx, "DELETE FROM developer_members WHERE id = '"+b.Actor.Member.ID+"'"); err != nil {
				t.Fatal(err)
			}
			_, err = f.svc.Authenticate(ctx, b.Token, "", false)
			wantCode(t, err, apierr.Unauthorized)
		})
		t.Run("sign-out ends it", func(t *testing.T) {
			a := f.signIn(t, "ana@example.com")
			in2, err := f.svc.SignIn(ctx, caller, "ana@example.com", password, a.Member.AccountID)
			if err != nil {
				t.Fatal(err)
			}
			a2, err := f.svc.Authenticate(ctx, in2.Token, "", false)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.svc.SignOut(ctx, a2); err != nil {
				t.Fatal(err)
			}
			_, err = f.svc.Authenticate(ctx, in2.Token, "", false)
			wantCode(t, err, apierr.Unauthorized)
		})
	})
}

var individual = developer.Profile{FullName: "Ana Cruz", DateOfBirth: "1990-04-01", IDType: "PASSPORT", IDNumber: "P1234567",
	Address: developer.Address{Line1: "1 Ayala Ave", City: "Makati", Province: "Metro Manila", PostalCode: "1200", Country: "PH"}}

func TestProfile(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		up := f.signUp(t, "ana@example.com", developer.TypeIndividual)

		wantCode(t, f.svc.SubmitProfile(ctx, caller, f.signIn(t, "ana@example.com"), individual),
			errorsv1.ErrorCode_ERROR_CODE_EMAIL_NOT_VERIFIED)
		f.verify(t, "ana@example.com")
		a := f.signIn(t, "ana@example.com")

		business := individual
		business.RegisteredName = "Cruz Trading"
		wantCode(t, f.svc.SubmitProfile(ctx, caller, a, business), errorsv1.ErrorCode_ERROR_CODE_PROFILE_TYPE_MISMATCH)
		missing := individual
		missing.IDNumber = ""
		wantCode(t, f.svc.SubmitProfile(ctx, caller, a, missing), apierr.ValidationError)

		// Each step a second apart: the trail is ordered by time.
		f.clock.Advance(time.Second)
		if err := f.svc.SubmitProfile(ctx, caller, a, individual); err != nil {
			t.Fatal(err)
		}
		wantCode(t, f.svc.SubmitProfile(ctx, caller, a, individual), errorsv1.ErrorCode_ERROR_CODE_PROFILE_ALREADY_SUBMITTED)

		f.clock.Advance(time.Second)
		// Rejected: may be sent again; approved: may not.
		if err := f.svc.ReviewProfile(ctx, up.AccountID, false); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(time.Second)
		if err := f.svc.SubmitProfile(ctx, caller, a, individual); err != nil {
			t.Fatalf("a rejected profile cannot be sent again: %v", err)
		}
		f.clock.Advance(time.Second)
		if err := f.svc.ReviewProfile(ctx, up.AccountID, true); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.ReviewProfile(ctx, up.AccountID, true); !errors.Is(err, developer.ErrNotFound) {
			t.Fatalf("reviewing with nothing pending: %v", err)
		}
		wantCode(t, f.svc.SubmitProfile(ctx, caller, a, individual), errorsv1.ErrorCode_ERROR_CODE_PROFILE_ALREADY_SUBMITTED)
		view, err := f.svc.Account(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if view.Account.ProfileStatus != developer.ProfileApproved || !view.EmailVerified || view.Role != developer.RoleOwner ||
			!strings.Contains(strings.ReplaceAll(string(view.Account.Profile), " ", ""), `"idNumber":"P1234567"`) {
			t.Fatalf("account %+v", view)
		}

		t.Run("a business", func(t *testing.T) {
			f.signUp(t, "biz@example.com", developer.TypeBusiness)
			f.verify(t, "biz@example.com")
			b := f.signIn(t, "biz@example.com")
			wantCode(t, f.svc.SubmitProfile(ctx, caller, b, individual), errorsv1.ErrorCode_ERROR_CODE_PROFILE_TYPE_MISMATCH)
			p := developer.Profile{RegisteredName: "Cruz Trading Inc.", RegistrationNumber: "CS201912345", Address: individual.Address}
			if err := f.svc.SubmitProfile(ctx, caller, b, p); err != nil {
				t.Fatal(err)
			}
		})
		entries, err := f.svc.AuditEntries(ctx, up.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, e := range entries {
			actions = append(actions, e.Action)
		}
		if got := strings.Join(actions, ","); got != "account.created,profile.submitted,profile.rejected,profile.submitted,profile.approved" {
			t.Fatalf("audit %s", got)
		}
	})
}

func TestDeleteAccount(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		up := f.signUp(t, "ana@example.com", developer.TypeIndividual)
		in, err := f.svc.SignIn(ctx, caller, "ana@example.com", password, "")
		if err != nil {
			t.Fatal(err)
		}
		d.Ent.App.Create().SetID("app_1").SetClientID("test_1").SetName("One").SetAccountID(up.AccountID).
			SetEnvironment("sandbox").SetSecretCiphertext([]byte{1}).ExecX(ctx)
		wantCode(t, f.svc.DeleteAccount(ctx, caller, in.Actor), errorsv1.ErrorCode_ERROR_CODE_CANNOT_DELETE_ACCOUNT_WITH_APPS)

		d.Ent.App.DeleteOneID("app_1").ExecX(ctx)
		f.clock.Advance(time.Second)
		if err := f.svc.DeleteAccount(ctx, caller, in.Actor); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Authenticate(ctx, in.Token, "", false)
		wantCode(t, err, apierr.Unauthorized)
		// The address is free again; the trail stays.
		f.signUp(t, "ana@example.com", developer.TypeBusiness)
		entries, err := f.svc.AuditEntries(ctx, up.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 2 || entries[1].Action != "account.deleted" {
			t.Fatalf("audit %+v", entries)
		}
	})
}
