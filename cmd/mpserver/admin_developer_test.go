package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/developer"
)

// The operator approves a console account's pending profile and reads the
// account's audit trail.
func TestAdminReviewProfileAndAudit(t *testing.T) {
	t.Setenv("MP_SECRET_KEY", auth.NewKey())
	path := sqliteFile(t)
	ctx := context.Background()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverSQLite, DSN: path})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	store := developer.NewEntStore(d)
	svc, err := developer.NewService(developer.Config{Store: store, Clock: clock.System{}, Business: clock.System{},
		ConsoleURL: "http://localhost/console/"})
	if err != nil {
		t.Fatal(err)
	}
	up, err := svc.SignUp(ctx, developer.Caller{ClientIP: "198.51.100.4"}, developer.SignUp{Email: "ana@example.com",
		Password: "correct horse battery", Name: "Ana", DeveloperType: developer.TypeBusiness})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin(t, path, "review-profile", "--account", up.AccountID, "--decision", "approve"); err == nil {
		t.Fatal("approved an account with no profile pending")
	}
	if err := store.SubmitProfile(ctx, up.AccountID, []byte(`{}`), clock.System{}.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := admin(t, path, "review-profile", "--account", up.AccountID, "--decision", "maybe"); err == nil {
		t.Fatal("a decision other than approve or reject was accepted")
	}
	out, err := admin(t, path, "review-profile", "--account", up.AccountID, "--decision", "approve")
	if err != nil {
		t.Fatal(err)
	}
	if out["profile_status"] != developer.ProfileApproved {
		t.Fatalf("review answered %v", out)
	}
	acct, err := store.Account(ctx, up.AccountID)
	if err != nil || acct.ProfileStatus != developer.ProfileApproved {
		t.Fatalf("account %+v (%v)", acct, err)
	}
	entries, err := adminList(t, path, "audit", "--account", up.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0]["action"] != "account.created" || entries[0]["client_ip"] != "198.51.100.4" ||
		entries[1]["action"] != "profile.approved" || entries[1]["user_id"] != "" {
		t.Fatalf("audit %v", entries)
	}
}

// adminList runs an admin command that prints a JSON array.
func adminList(t *testing.T, path string, args ...string) ([]map[string]any, error) {
	t.Helper()
	var out bytes.Buffer
	err := runAdmin(context.Background(), append(args, "--db-driver", "sqlite", "--database-url", path), strings.NewReader(""), &out, io.Discard)
	if err != nil {
		return nil, err
	}
	var list []map[string]any
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	return list, nil
}
