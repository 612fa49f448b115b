package main

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent/app"
	"github.com/mallplatform/partnerapi/ent/event"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/auth/expiring"
)

// The worker role runs the expiring-grant notice when it becomes leader: a
// grant ending in 3 days gets its authorization.expiring, addressed to its
// app, with the delivery to the app's subscription queued beside it.
func TestWorkerRoleNoticesExpiringGrants(t *testing.T) {
	dsn := dbtest.EmptyPostgres(t)
	if err := run(context.Background(), []string{"migrate", "--database-url", dsn}, io.Discard, io.Discard); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	d, err := db.Open(context.Background(), db.Config{Driver: db.DriverPostgres, DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	now := time.Now()
	c := d.Ent
	c.DeveloperAccount.Create().SetID("acc_1").SetName("Acme").SetEmail("dev@acme.example").ExecX(ctx)
	c.App.Create().SetID("app_a").SetClientID("live_a").SetName("App a").SetAccountID("acc_1").
		SetEnvironment(app.EnvironmentProduction).SetSecretCiphertext([]byte("sealed")).ExecX(ctx)
	c.Seller.Create().SetID("sel_1").SetName("Seller").SetShopName("Shop").ExecX(ctx)
	c.SellerAuthorization.Create().SetID("sau_1").SetAppID("app_a").SetSellerID("sel_1").SetScopes([]string{"orders:read"}).
		SetAccessTokenHash("0000000000000000000000000000000000000000000000000000000000000001").SetAccessExpiresAt(now.Add(time.Hour)).
		SetRefreshTokenHash("0000000000000000000000000000000000000000000000000000000000000002").SetRefreshExpiresAt(now.Add(3 * 24 * time.Hour)).
		SetGrantExpiresAt(now.Add(3 * 24 * time.Hour)).ExecX(ctx)
	c.WebhookSubscription.Create().SetID("whk_a").SetAppID("app_a").SetEventType("authorization.expiring").
		SetCallbackURL("https://hooks.acme.example/grants").SetIsActive(true).SetSecretCiphertext([]byte("sealed")).
		SetCreatedAt(now).SetUpdatedAt(now).ExecX(ctx)

	internal := freeLocalAddr(t)
	stop := startRole(t, "worker", "--database-url", dsn, "--secret-key", auth.NewKey(), "--metrics-addr", internal, "--concurrency", "2")
	waitStatusWithin(t, "http://"+internal+"/readyz", http.StatusOK, 30*time.Second)

	deadline := time.Now().Add(30 * time.Second)
	for {
		ev, err := c.Event.Query().Where(event.Type("authorization.expiring"), event.ResourceID("sau_1")).Only(ctx)
		if err == nil {
			if ev.AppID != "app_a" || ev.SellerID != "sel_1" {
				t.Fatalf("event %+v", ev)
			}
			var queued int
			if err := d.SQL.QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE kind = 'webhook.deliver'
				AND args->>'subscription_id' = 'whk_a' AND args->>'event_id' = $1`, ev.EventID).Scan(&queued); err != nil || queued != 1 {
				t.Fatalf("deliveries queued for the event: %d (%v)", queued, err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no authorization.expiring event (%v; jobs: %v)", err, riverJobStates(d.SQL, expiring.Kind))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if row := c.SellerAuthorization.GetX(ctx, "sau_1"); row.ExpiringNotifiedAt == nil {
		t.Error("the grant is not marked noticed")
	}

	stop()
}
