package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

type feedEvent struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt string          `json:"created_at"`
	SellerID  string          `json:"seller_id"`
	Sequence  int64           `json:"sequence"`
	Data      json.RawMessage `json:"data"`
}

type feedPage struct {
	Data []feedEvent `json:"data"`
	Meta struct {
		Total      int64  `json:"total"`
		NextCursor string `json:"next_cursor"`
	} `json:"meta"`
}

func get(t testing.TB, c *sdk.Client, path, query string) *sdk.Response {
	t.Helper()
	r, err := c.DoSigned(context.Background(), sdk.Request{Method: "GET", Path: path, RawQuery: query})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func page(t testing.TB, r *sdk.Response) feedPage {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("feed: %d %s", r.Status, r.Body)
	}
	var p feedPage
	if err := json.Unmarshal(r.Body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func code(r *sdk.Response) string {
	var e sdk.Envelope
	if json.Unmarshal(r.Body, &e) != nil || e.Error == nil {
		return ""
	}
	return e.Error.Code
}

func TestFeed(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) { testFeed(t, pg) })
	}
}

func testFeed(t *testing.T, pg bool) {
	env := testenv.Start(t, testenv.Options{Postgres: pg})
	ctx := context.Background()
	full := env.Client(t, "full", 0)
	seller := env.Creds.Sellers[0].SellerID

	// The seeded products were created through the catalog service, each
	// with its product.created event.
	first := page(t, get(t, full, "/open/v1/events", ""))
	if first.Meta.Total == 0 || len(first.Data) == 0 {
		t.Fatalf("no events after seeding: %+v", first)
	}
	for _, e := range first.Data {
		if e.SellerID != seller || e.Type != "product.created" || e.Sequence != 1 || !strings.HasPrefix(e.ID, "evt_") {
			t.Errorf("seeded event %+v", e)
		}
		if _, err := time.Parse(time.RFC3339Nano, e.CreatedAt); err != nil {
			t.Errorf("created_at %q: %v", e.CreatedAt, err)
		}
	}

	// A change appends its event at the end, the order as GET renders it
	// minus buyerEmail.
	o, err := env.DB.Ent.Order.Query().Where(order.SellerID(seller), order.StatusIn(order.StatusPaid, order.StatusReadyToShip, order.StatusPending)).
		Order(ent.Asc(order.FieldID)).First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, err := full.DoSigned(ctx, sdk.Request{Method: "POST", Path: "/open/v1/orders/" + o.ID + "/cancel"})
	if err != nil || r.Status != 200 {
		t.Fatalf("cancel: %v %d %s", err, r.Status, r.Body)
	}
	got := get(t, full, "/open/v1/orders/"+o.ID, "")
	// The cancellation's restock records the stock moves beside it
	// (inventory.updated, product.updated), in the same transaction.
	after := page(t, get(t, full, "/open/v1/events", "limit=1"))
	cancelled := page(t, get(t, full, "/open/v1/events", "type=order.cancelled"))
	if len(cancelled.Data) != 1 || cancelled.Meta.Total != 1 {
		t.Fatalf("order.cancelled events: %+v", cancelled)
	}
	ev := cancelled.Data[0]
	var view struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(got.Body, &view); err != nil {
		t.Fatal(err)
	}
	var fromGet, fromEvent map[string]any
	_ = json.Unmarshal(view.Data, &fromGet)
	if err := json.Unmarshal(ev.Data, &fromEvent); err != nil {
		t.Fatalf("event data %s: %v", ev.Data, err)
	}
	delete(fromGet, "buyerEmail") // the full app reads it on GET, when the order has one
	if _, ok := fromEvent["buyerEmail"]; ok {
		t.Error("an event carries buyerEmail")
	}
	if a, b := fmt.Sprint(fromGet), fmt.Sprint(fromEvent); a != b {
		t.Errorf("event data differs from GET:\n%s\n%s", b, a)
	}
	one := get(t, full, "/open/v1/events/"+ev.ID, "")
	var single struct {
		Data feedEvent `json:"data"`
	}
	if err := json.Unmarshal(one.Body, &single); err != nil || single.Data.ID != ev.ID || string(single.Data.Data) != string(ev.Data) {
		t.Errorf("GET /events/%s: %d %s", ev.ID, one.Status, one.Body)
	}

	// Paging: oldest first, the cursor continues where the page ended.
	var ids []string
	cursor := ""
	for i := 0; i < 50; i++ {
		q := "limit=2"
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		p := page(t, get(t, full, "/open/v1/events", q))
		for _, e := range p.Data {
			ids = append(ids, e.ID)
		}
		if cursor = p.Meta.NextCursor; cursor == "" {
			break
		}
	}
	if int64(len(ids)) != after.Meta.Total || after.Meta.Total <= first.Meta.Total || !slices.Contains(ids[first.Meta.Total:], ev.ID) {
		t.Errorf("paged %d events, want %d with %s after the %d seeded", len(ids), after.Meta.Total, ev.ID, first.Meta.Total)
	}

	// created_after is inclusive and filters by the event's time.
	future := page(t, get(t, full, "/open/v1/events", "created_after="+url.QueryEscape(env.Clock.Now().Add(time.Hour).Format(time.RFC3339))))
	if len(future.Data) != 0 {
		t.Errorf("events after the future: %+v", future.Data)
	}

	// Another seller sees none of these; an unknown id and another seller's
	// event are the same 404.
	other := env.Client(t, "full", 1)
	if r := get(t, other, "/open/v1/events/"+ev.ID, ""); r.Status != 404 || code(r) != "NOT_FOUND" {
		t.Errorf("another seller's event: %d %s", r.Status, r.Body)
	}
	for _, e := range page(t, get(t, other, "/open/v1/events", "limit=100")).Data {
		if e.SellerID == seller {
			t.Errorf("seller 1 reads seller 0's event %s", e.ID)
		}
	}

	// Scope by type: a catalog:read grant reads product and inventory
	// events only.
	app, err := env.Auth.AppCredentials(ctx, env.Creds.Apps["full"].ClientID)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := env.Auth.AuthorizeSeller(ctx, app.App.ID, seller, []string{"catalog:read"}, time.Hour, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	catalogOnly := env.Client(t, "full", -1).WithSeller(seller, tok.AccessToken)
	if r := get(t, catalogOnly, "/open/v1/events", "type=order.cancelled"); r.Status != 403 || code(r) != "FORBIDDEN" {
		t.Errorf("order events with catalog:read: %d %s", r.Status, r.Body)
	}
	if r := get(t, catalogOnly, "/open/v1/events/"+ev.ID, ""); r.Status != 403 {
		t.Errorf("an order event with catalog:read: %d %s", r.Status, r.Body)
	}
	for _, e := range page(t, get(t, catalogOnly, "/open/v1/events", "limit=100")).Data {
		if !strings.HasPrefix(e.Type, "product.") && !strings.HasPrefix(e.Type, "inventory.") {
			t.Errorf("catalog:read lists %s", e.Type)
		}
	}
	if r := get(t, full, "/open/v1/events", "type=order.exploded"); r.Status != 400 || code(r) != "VALIDATION_ERROR" {
		t.Errorf("unknown type: %d %s", r.Status, r.Body)
	}
}
