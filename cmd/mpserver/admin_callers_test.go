package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
)

// sqliteFile makes a database file with the schema, as the dev role does.
func sqliteFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "admin.db")
	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverSQLite, DSN: path})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := db.CreateSchema(context.Background(), d.Ent); err != nil {
		t.Fatal(err)
	}
	return path
}

func admin(t *testing.T, path string, args ...string) (map[string]any, error) {
	t.Helper()
	return adminWithInput(t, path, "", args...)
}

// adminWithInput runs an admin command with stdin (a password) and decodes
// its JSON.
func adminWithInput(t *testing.T, path, stdin string, args ...string) (map[string]any, error) {
	t.Helper()
	var out bytes.Buffer
	err := runAdmin(context.Background(), append(args, "--db-driver", "sqlite", "--database-url", path), strings.NewReader(stdin), &out, io.Discard)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%s: %v", out.String(), err)
	}
	return m, nil
}

// The operator issues a token shown once (only its hash is kept), limited to
// the services it names, without holding the key that seals app secrets;
// revoking marks the row.
func TestAdminIssuesAndRevokesInternalCallers(t *testing.T) {
	t.Setenv("MP_SECRET_KEY", "")
	path := sqliteFile(t)
	created, err := admin(t, path, "create-internal-caller", "--name", "checkout", "--services", "mp.orders.v1.OrdersService")
	if err != nil {
		t.Fatal(err)
	}
	token, _ := created["token"].(string)
	id, _ := created["caller_id"].(string)
	if !strings.HasPrefix(token, "mpic_") || id == "" {
		t.Fatalf("created: %v", created)
	}

	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverSQLite, DSN: path})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	row, err := d.Ent.InternalCaller.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(token))
	if row.TokenHash != hex.EncodeToString(sum[:]) || strings.Join(row.Services, ",") != "mp.orders.v1.OrdersService" {
		t.Fatalf("row: %+v", row)
	}

	revoked, err := admin(t, path, "revoke-internal-caller", "--id", id)
	if err != nil || revoked["revoked_at"] == nil || revoked["token"] != nil {
		t.Fatalf("revoke: %v %v", revoked, err)
	}
	if row, err = d.Ent.InternalCaller.Get(context.Background(), id); err != nil || row.RevokedAt == nil {
		t.Fatalf("row after revoke: %+v %v", row, err)
	}
}

func TestAdminRefusesServicesClosedToInternalCallers(t *testing.T) {
	path := sqliteFile(t)
	for _, svc := range []string{"mp.credentials.v1.CredentialService", "mp.nothing.v1.NoService"} {
		if _, err := admin(t, path, "create-internal-caller", "--name", "checkout", "--services", svc); err == nil || !strings.Contains(err.Error(), "mp.orders.v1.OrdersService") {
			t.Errorf("%s: %v", svc, err)
		}
	}
}

// A tier configured with the old shared token refuses to start rather than
// treat it as the gateway's credential.
func TestTiersRefuseTheRetiredSharedToken(t *testing.T) {
	t.Setenv("MP_INTERNAL_TOKEN", "the-old-shared-token-0123456789")
	t.Setenv("MP_GATEWAY_TOKEN", "a-fresh-gateway-token-0123456789")
	for name, run := range map[string]func(context.Context, []string, io.Writer) error{"core": runCore, "gateway": runGateway} {
		if err := run(context.Background(), nil, io.Discard); err == nil || !strings.Contains(err.Error(), "MP_INTERNAL_TOKEN") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
