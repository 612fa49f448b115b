package webhooks_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mallplatform/partnerapi/ent/sellerauthorization"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/webhooks"
)

// Subscribing to an authorization event type needs no scope: the events
// are the app's own grants.
func TestSubscribingToAuthorizationEventsNeedsNoScope(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		svc := newService(t, d, clock.NewManual(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)))
		none := as("app_none", auth.EnvProduction)
		for _, typ := range []eventsv1.EventType{eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_GRANTED,
			eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_REVOKED, eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_EXPIRING} {
			if v, err := svc.Create(none, typ, "https://hooks.acme.example/grants"); err != nil || v.EventType != events.WireName(typ) {
				t.Errorf("subscribe to %s without scopes: %+v %v", events.WireName(typ), v, err)
			}
		}
		if _, err := svc.Create(none, eventsv1.EventType_EVENT_TYPE_ORDER_CREATED, "https://hooks.acme.example/orders"); code(err) != "FORBIDDEN" {
			t.Errorf("order.created without orders:read: %v", err)
		}
	})
}

// pendingEvents lists the event ids of a subscription's deliveries queued
// and not attempted yet, oldest first.
func pendingEvents(t *testing.T, env *testenv.Env, app, id string) []string {
	t.Helper()
	status, _, body := send(t, env.Client(t, app, -1), "GET", "/open/v1/webhooks/"+id+"/deliveries", "")
	var log struct {
		Data []struct {
			EventID string `json:"eventId"`
			Status  string `json:"status"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &log); status != 200 || err != nil {
		t.Fatalf("deliveries: %d %s", status, body)
	}
	var out []string
	for _, d := range log.Data {
		if d.Status == "pending" {
			out = append([]string{d.EventID}, out...)
		}
	}
	return out
}

func subscribeTo(t *testing.T, env *testenv.Env, app, eventType, url string) string {
	t.Helper()
	status, _, body := send(t, env.Client(t, app, -1), "POST", "/open/v1/webhooks",
		fmt.Sprintf(`{"eventType":%q,"callbackUrl":%q}`, eventType, url))
	var created struct {
		Data struct{ ID string } `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &created); status != 201 || err != nil {
		t.Fatalf("subscribe %s to %s: %d %s", app, eventType, status, body)
	}
	return created.Data.ID
}

// An event addressed to an app is queued for that app's active
// subscriptions of its type alone, even once the grant has ended (the
// revocation), never for another app holding a grant of the seller; a
// replay re-sends the app's own addressed events only.
func TestAddressedEventsReachTheirAppAlone(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg})
			ctx := context.Background()
			seller := env.Creds.Sellers[0].SellerID
			fullSub := subscribeTo(t, env, "full", "authorization.revoked", "https://hooks.full.example/grants")
			fullOther := subscribeTo(t, env, "full", "authorization.granted", "https://hooks.full.example/granted")
			limitedSub := subscribeTo(t, env, "limited", "authorization.revoked", "https://hooks.limited.example/grants")
			paused := subscribeTo(t, env, "full", "authorization.revoked", "https://hooks.full.example/paused")
			if status, _, body := send(t, env.Client(t, "full", -1), "PUT", "/open/v1/webhooks/"+paused, `{"isActive":false}`); status != 200 {
				t.Fatalf("pause: %d %s", status, body)
			}

			jobs, err := worker.NewInserter(env.DB)
			if err != nil {
				t.Fatal(err)
			}
			rec := events.NewRecorder(events.NewEntStore(env.DB), env.Clock).
				WithDispatcher(webhooks.NewDispatcher(webhooks.NewEntStore(env.DB), jobs, env.Clock))
			// revoke ends an app's grant of the seller and records its
			// authorization.revoked in one transaction, as the auth
			// service does.
			revoke := func(app string) events.Event {
				t.Helper()
				a, err := env.Auth.AppCredentials(ctx, env.Creds.Apps[app].ClientID)
				if err != nil {
					t.Fatal(err)
				}
				now := env.Clock.Now()
				var ev events.Event
				err = db.InTx(ctx, env.DB.Ent, func(ctx context.Context) error {
					g, err := db.Client(ctx, env.DB.Ent).SellerAuthorization.Query().
						Where(sellerauthorization.AppID(a.App.ID), sellerauthorization.SellerID(seller)).First(ctx)
					if err != nil {
						return err
					}
					if err := g.Update().SetRevokedAt(now).Exec(ctx); err != nil {
						return err
					}
					ev, err = rec.Record(ctx, events.Change{SellerID: seller, AppID: a.App.ID,
						Type: eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_REVOKED, ResourceID: g.ID, At: now,
						View: &eventsv1.Grant{Id: g.ID, SellerId: seller, ClientId: a.App.ClientID, Scopes: g.Scopes,
							GrantedAt: timestamppb.New(g.CreatedAt), ExpiresAt: timestamppb.New(g.RefreshExpiresAt), RevokedAt: timestamppb.New(now)}})
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return ev
			}
			fullEv := revoke("full")
			if got := pendingEvents(t, env, "full", fullSub); !slices.Equal(got, []string{fullEv.ID}) {
				t.Errorf("the app's subscription has %v queued, want [%s]", got, fullEv.ID)
			}
			for _, c := range []struct{ app, sub, why string }{
				{"limited", limitedSub, "another app granted by the seller"},
				{"full", fullOther, "another type"},
				{"full", paused, "a paused subscription"},
			} {
				if got := pendingEvents(t, env, c.app, c.sub); len(got) != 0 {
					t.Errorf("%s has %v queued", c.why, got)
				}
			}

			limitedEv := revoke("limited")
			if got := pendingEvents(t, env, "limited", limitedSub); !slices.Equal(got, []string{limitedEv.ID}) {
				t.Errorf("the other app's subscription has %v queued, want [%s]", got, limitedEv.ID)
			}
			if got := pendingEvents(t, env, "full", fullSub); !slices.Equal(got, []string{fullEv.ID}) {
				t.Errorf("the app's subscription has %v queued after the other app's revocation, want [%s]", got, fullEv.ID)
			}

			// Replay: the app's own addressed events, though its grant has
			// ended; never the other app's.
			since := env.Clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
			if status, _, body := send(t, env.Client(t, "full", -1), "POST", "/open/v1/webhooks/"+fullSub+"/replay", `{"since":"`+since+`"}`); status != 202 ||
				!strings.Contains(body, `"queued":1`) {
				t.Fatalf("replay: %d %s", status, body)
			}
			if got := pendingEvents(t, env, "full", fullSub); !slices.Equal(got, []string{fullEv.ID, fullEv.ID}) {
				t.Errorf("after the replay the app's subscription has %v queued, want %s twice", got, fullEv.ID)
			}
			if got := pendingEvents(t, env, "limited", limitedSub); !slices.Equal(got, []string{limitedEv.ID}) {
				t.Errorf("the other app's subscription has %v queued after a replay that was not its own", got)
			}
			if status, _, body := send(t, env.Client(t, "full", -1), "POST", "/open/v1/webhooks/"+fullOther+"/replay", `{"since":"`+since+`"}`); status != 202 ||
				!strings.Contains(body, `"queued":0`) {
				t.Fatalf("replay of another type: %d %s", status, body)
			}
		})
	}
}

// The addressed event goes out signed like any other, its data the Grant.
func TestAddressedEventDelivery(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true, WebhookAllow: loopback})
	ctx := context.Background()
	rcv := newReceiver(t)
	subscribeTo(t, env, "full", "authorization.expiring", rcv.srv.URL+"/grants")
	a, err := env.Auth.AppCredentials(ctx, env.Creds.Apps["full"].ClientID)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := worker.NewInserter(env.DB)
	if err != nil {
		t.Fatal(err)
	}
	rec := events.NewRecorder(events.NewEntStore(env.DB), env.Clock).
		WithDispatcher(webhooks.NewDispatcher(webhooks.NewEntStore(env.DB), jobs, env.Clock))
	seller := env.Creds.Sellers[0].SellerID
	ends := env.Clock.Now().Add(7 * 24 * time.Hour)
	var ev events.Event
	if err := db.InTx(ctx, env.DB.Ent, func(ctx context.Context) (err error) {
		ev, err = rec.Record(ctx, events.Change{SellerID: seller, AppID: a.App.ID,
			Type: eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_EXPIRING, ResourceID: "sau_delivered", At: env.Clock.Now(),
			View: &eventsv1.Grant{Id: "sau_delivered", SellerId: seller, ClientId: a.App.ClientID, Scopes: []string{"orders:read"},
				GrantedAt: timestamppb.New(ends.Add(-365 * 24 * time.Hour)), ExpiresAt: timestamppb.New(ends)}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(rcv.srv.Certificate())
	startWorker(t, env, pool)
	rcv.wait(t)
	rcv.mu.Lock()
	body, req := rcv.bodies[0], rcv.got[0]
	rcv.mu.Unlock()
	var got struct {
		ID, Type string
		SellerID string `json:"seller_id"`
		Data     map[string]any
	}
	if err := json.Unmarshal(body, &got); err != nil || got.ID != ev.ID || got.Type != "authorization.expiring" || got.SellerID != seller ||
		got.Data["id"] != "sau_delivered" || got.Data["client_id"] != a.App.ClientID || got.Data["expires_at"] != ends.UTC().Format("2006-01-02T15:04:05.000Z") {
		t.Fatalf("payload: %s", body)
	}
	if req.Header.Get("webhook-id") != ev.ID || req.Header.Get("webhook-signature") == "" {
		t.Errorf("headers: %v", req.Header)
	}
}
