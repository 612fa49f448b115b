package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/mallplatform/partnerapi/ent/sellerauthorization"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/events"
)

// An authorization event reaches the feed of the app it is addressed to,
// whatever scopes the seller granted, and no other app's, though both hold
// grants of the seller; events without an app read as before.
func TestAddressedEventsInTheFeed(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testAddressedFeed(t, pg) })
	}
}

func testAddressedFeed(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg})
	ctx := context.Background()
	seller := env.Creds.Sellers[0].SellerID
	full, limited := env.Client(t, "full", 0), env.Client(t, "limited", 0)
	fullApp, err := env.Auth.AppCredentials(ctx, env.Creds.Apps["full"].ClientID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := env.DB.Ent.SellerAuthorization.Query().
		Where(sellerauthorization.AppID(fullApp.App.ID), sellerauthorization.SellerID(seller)).First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	productsBefore := page(t, get(t, limited, "/open/v1/events", "type=product.created&limit=1")).Meta.Total

	now := env.Clock.Now()
	rec := events.NewRecorder(events.NewEntStore(env.DB), env.Clock)
	view := &eventsv1.Grant{Id: g.ID, SellerId: seller, ClientId: fullApp.App.ClientID, Scopes: g.Scopes,
		GrantedAt: timestamppb.New(g.CreatedAt), ExpiresAt: timestamppb.New(now.Add(365 * 24 * time.Hour))}
	ev, err := rec.Record(ctx, events.Change{SellerID: seller, AppID: fullApp.App.ID,
		Type: eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_GRANTED, ResourceID: g.ID, At: now, View: view})
	if err != nil {
		t.Fatal(err)
	}

	// The app it is addressed to: listed by type and in the whole feed,
	// readable by id, its data the Grant.
	mine := page(t, get(t, full, "/open/v1/events", "type=authorization.granted"))
	if len(mine.Data) != 1 || mine.Meta.Total != 1 || mine.Data[0].ID != ev.ID || mine.Data[0].SellerID != seller ||
		mine.Data[0].Sequence != 1 {
		t.Fatalf("the app's authorization events: %+v", mine)
	}
	var data map[string]any
	if err := json.Unmarshal(mine.Data[0].Data, &data); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": g.ID, "seller_id": seller, "client_id": fullApp.App.ClientID,
		"granted_at": g.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"),
		"expires_at": now.Add(365 * 24 * time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")}
	for k, v := range want {
		if data[k] != v {
			t.Errorf("data.%s = %v, want %v (%s)", k, data[k], v, mine.Data[0].Data)
		}
	}
	if _, ok := data["revoked_at"]; ok {
		t.Errorf("a live grant carries revoked_at: %s", mine.Data[0].Data)
	}
	if scopes, _ := data["scopes"].([]any); len(scopes) != len(g.Scopes) {
		t.Errorf("data.scopes = %v, want %v", data["scopes"], g.Scopes)
	}
	if r := get(t, full, "/open/v1/events/"+ev.ID, ""); r.Status != 200 {
		t.Errorf("GET the app's own authorization event: %d %s", r.Status, r.Body)
	}
	var all []string
	for _, e := range page(t, get(t, full, "/open/v1/events", "limit=100&created_after="+now.UTC().Format(time.RFC3339Nano))).Data {
		all = append(all, e.ID)
	}
	if !slices.Contains(all, ev.ID) {
		t.Errorf("the whole feed of the app misses its authorization event: %v", all)
	}

	// Another app holding a grant of the same seller: not listed, and 404
	// by id, as a missing event.
	theirs := page(t, get(t, limited, "/open/v1/events", "type=authorization.granted"))
	if len(theirs.Data) != 0 || theirs.Meta.Total != 0 {
		t.Errorf("another app lists the authorization event: %+v", theirs)
	}
	for _, e := range page(t, get(t, limited, "/open/v1/events", "limit=100")).Data {
		if e.ID == ev.ID {
			t.Error("another app's whole feed holds the authorization event")
		}
	}
	if r := get(t, limited, "/open/v1/events/"+ev.ID, ""); r.Status != 404 || code(r) != "NOT_FOUND" {
		t.Errorf("another app's authorization event by id: %d %s", r.Status, r.Body)
	}

	// No scope reads them: the app's own token granted catalog:read only
	// reads its authorization events beside the product events.
	tok, err := env.Auth.AuthorizeSeller(ctx, fullApp.App.ID, seller, []string{"catalog:read"}, time.Hour, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	catalogOnly := env.Client(t, "full", -1).WithSeller(seller, tok.AccessToken)
	if p := page(t, get(t, catalogOnly, "/open/v1/events", "type=authorization.granted")); len(p.Data) != 1 || p.Data[0].ID != ev.ID {
		t.Errorf("authorization events with catalog:read: %+v", p)
	}
	if r := get(t, catalogOnly, "/open/v1/events/"+ev.ID, ""); r.Status != 200 {
		t.Errorf("an authorization event by id with catalog:read: %d %s", r.Status, r.Body)
	}

	// Events without an app are unchanged: both apps read the seller's
	// product events.
	if n := page(t, get(t, limited, "/open/v1/events", "type=product.created&limit=1")).Meta.Total; n != productsBefore || n == 0 {
		t.Errorf("another app's product events: %d, were %d", n, productsBefore)
	}
	if n := page(t, get(t, full, "/open/v1/events", "type=product.created&limit=1")).Meta.Total; n != productsBefore {
		t.Errorf("the app's product events: %d, want %d", n, productsBefore)
	}
}
