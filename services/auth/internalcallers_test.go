package auth_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
)

// The database holds the SHA-256 of an internal caller's token and nothing
// from which the token could be used.
func TestInternalCallerTokenIsStoredHashed(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		svc := newService(t, d, clock.NewManual(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)))
		issued, err := svc.CreateInternalCaller(ctx, auth.NewInternalCaller{Name: "checkout", Services: []string{"mp.orders.v1.OrdersService"}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(issued.Token, auth.InternalCallerTokenPrefix) || len(issued.Token) < 40 {
			t.Fatalf("token %q", issued.Token)
		}
		row, err := d.Ent.InternalCaller.Get(ctx, issued.Caller.ID)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(issued.Token))
		if row.TokenHash != hex.EncodeToString(sum[:]) {
			t.Fatalf("stored %q, want the token's SHA-256", row.TokenHash)
		}
		secretPart := strings.TrimPrefix(issued.Token, auth.InternalCallerTokenPrefix)
		for _, v := range []string{row.ID, row.Name, row.TokenHash, strings.Join(row.Services, ",")} {
			if strings.Contains(v, secretPart) {
				t.Fatalf("a column holds the token: %q", v)
			}
		}
		if row.Name != "checkout" || len(row.Services) != 1 || row.Services[0] != "mp.orders.v1.OrdersService" || row.RevokedAt != nil {
			t.Fatalf("row %+v", row)
		}
	})
}

// A revoked token is refused once the verification cache has let go of it,
// and never later than InternalCallerCacheTTL after the revocation.
func TestInternalCallerRevocation(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		clk := clock.NewManual(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC))
		svc := newService(t, d, clk)
		issued, err := svc.CreateInternalCaller(ctx, auth.NewInternalCaller{Name: "logistics"})
		if err != nil {
			t.Fatal(err)
		}
		c, err := svc.VerifyInternalCaller(ctx, issued.Token)
		if err != nil || c.ID != issued.Caller.ID || c.Name != "logistics" {
			t.Fatalf("verify: %+v %v", c, err)
		}
		revoked, err := svc.RevokeInternalCaller(ctx, issued.Caller.ID)
		if err != nil || revoked.RevokedAt == nil {
			t.Fatalf("revoke: %+v %v", revoked, err)
		}
		clk.Advance(auth.InternalCallerCacheTTL)
		if _, err := svc.VerifyInternalCaller(ctx, issued.Token); apierr.CodeOf(err) != apierr.Unauthorized {
			t.Fatalf("revoked token after the cache TTL: %v", err)
		}
		// Revoking twice keeps the first time.
		again, err := svc.RevokeInternalCaller(ctx, issued.Caller.ID)
		if err != nil || !again.RevokedAt.Equal(*revoked.RevokedAt) {
			t.Fatalf("second revoke: %+v %v", again, err)
		}
		if _, err := svc.RevokeInternalCaller(ctx, "icl_missing"); apierr.CodeOf(err) != apierr.NotFound {
			t.Fatalf("unknown id: %v", err)
		}
		list, err := svc.ListInternalCallers(ctx)
		if err != nil || len(list) != 1 || list[0].RevokedAt == nil {
			t.Fatalf("list: %+v %v", list, err)
		}
	})
}

func TestInternalCallerTokensRefused(t *testing.T) {
	d := dbtest.SQLite(t)
	ctx := context.Background()
	svc := newService(t, d, clock.NewManual(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)))
	issued, err := svc.CreateInternalCaller(ctx, auth.NewInternalCaller{Name: "trust-safety"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"", "mpic_unknown", strings.TrimPrefix(issued.Token, auth.InternalCallerTokenPrefix), issued.Token + "x"} {
		if _, err := svc.VerifyInternalCaller(ctx, tok); apierr.CodeOf(err) != apierr.Unauthorized {
			t.Errorf("token %q: %v", tok, err)
		}
	}
	for _, in := range []auth.NewInternalCaller{{Name: ""}, {Name: "Has Spaces"}, {Name: "ok", Services: []string{"OrdersService"}}} {
		if _, err := svc.CreateInternalCaller(ctx, in); apierr.CodeOf(err) != apierr.ValidationError {
			t.Errorf("%+v: %v", in, err)
		}
	}
}
