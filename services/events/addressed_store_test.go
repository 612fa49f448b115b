package events_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/events"
)

// dispatched keeps what a Recorder hands on.
type dispatched struct{ events []events.Event }

func (d *dispatched) Dispatch(_ context.Context, es []events.Event) error {
	d.events = append(d.events, es...)
	return nil
}

func ids(es []events.Event) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

// An event addressed to an app is written and read back with its app, and
// only its app (or an internal caller) sees it; unaddressed events are seen
// by everyone as before.
func TestAddressedEventsInTheStore(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
		st := events.NewEntStore(d)
		sent := &dispatched{}
		rec := events.NewRecorder(st, clock.NewManual(now)).WithDispatcher(sent)
		granted := eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_GRANTED
		grant := &eventsv1.Grant{Id: "sau_1", SellerId: "sel_1", ClientId: "test_a", Scopes: []string{"orders:read"},
			GrantedAt: timestamppb.New(now), ExpiresAt: timestamppb.New(now.Add(365 * 24 * time.Hour))}

		// The auth service's call, as it makes it.
		toA, err := rec.Record(ctx, events.Change{SellerID: "sel_1", AppID: "app_a", Type: granted, ResourceID: "sau_1", At: now, View: grant})
		if err != nil {
			t.Fatal(err)
		}
		if toA.AppID != "app_a" || toA.Type != "authorization.granted" || toA.Sequence != 1 {
			t.Fatalf("recorded %+v", toA)
		}
		if len(sent.events) != 1 || sent.events[0].AppID != "app_a" {
			t.Fatalf("dispatched %+v, want the event with its app", sent.events)
		}
		// RecordMany writes the app too.
		if err := rec.RecordMany(ctx, []events.Change{
			{SellerID: "sel_1", AppID: "app_b", Type: granted, ResourceID: "sau_2", At: now, View: grant},
			{SellerID: "sel_1", Type: eventsv1.EventType_EVENT_TYPE_ORDER_PAID, ResourceID: "ord_1", At: now, View: grant},
		}); err != nil {
			t.Fatal(err)
		}
		toB, plain := sent.events[1], sent.events[2]
		if toB.AppID != "app_b" || plain.AppID != "" {
			t.Fatalf("RecordMany dispatched %+v and %+v", toB, plain)
		}

		// An authorization event without its app would reach every app the
		// seller granted: refused.
		if _, err := rec.Record(ctx, events.Change{SellerID: "sel_1", Type: granted, ResourceID: "sau_3", At: now, View: grant}); err == nil {
			t.Fatal("an authorization event without an app was recorded")
		}
		if err := rec.RecordMany(ctx, []events.Change{{SellerID: "sel_1", Type: eventsv1.EventType_EVENT_TYPE_AUTHORIZATION_REVOKED,
			ResourceID: "sau_3", At: now, View: grant}}); err == nil {
			t.Fatal("RecordMany recorded an authorization event without an app")
		}

		// An order event concerns every app granted orders:read: it takes
		// no app.
		if _, err := rec.Record(ctx, events.Change{SellerID: "sel_1", AppID: "app_a", Type: eventsv1.EventType_EVENT_TYPE_ORDER_PAID,
			ResourceID: "ord_2", At: now, View: grant}); err == nil {
			t.Fatal("an order event addressed to one app was recorded")
		}

		types := []string{"authorization.granted", "order.paid"}
		for _, c := range []struct {
			name string
			a    events.Audience
			want []string
		}{
			{"app a", events.Audience{AppID: "app_a"}, []string{toA.ID, plain.ID}},
			{"app b", events.Audience{AppID: "app_b"}, []string{toB.ID, plain.ID}},
			{"app c", events.Audience{AppID: "app_c"}, []string{plain.ID}},
			{"nobody", events.Audience{}, []string{plain.ID}},
			{"internal", events.Audience{AnyApp: true}, []string{toA.ID, toB.ID, plain.ID}},
		} {
			f := events.Filter{Types: types, Audience: c.a}
			got, more, err := st.List(ctx, "sel_1", f, 0, 10)
			if err != nil || more || !slices.Equal(ids(got), c.want) {
				t.Errorf("%s lists %v (more %v, %v), want %v", c.name, ids(got), more, err, c.want)
			}
			if n, err := st.Count(ctx, "sel_1", f); err != nil || n != int64(len(c.want)) {
				t.Errorf("%s counts %d (%v), want %d", c.name, n, err, len(c.want))
			}
			for _, id := range []string{toA.ID, toB.ID, plain.ID} {
				e, err := st.Get(ctx, "sel_1", c.a, id)
				if slices.Contains(c.want, id) {
					if err != nil || e.ID != id {
						t.Errorf("%s gets %s: %+v %v", c.name, id, e, err)
					}
				} else if !errors.Is(err, events.ErrNotFound) {
					t.Errorf("%s gets %s: %+v %v, want not found", c.name, id, e, err)
				}
			}
		}
		got, err := st.Get(ctx, "sel_1", events.Audience{AppID: "app_a"}, toA.ID)
		if err != nil || got.AppID != "app_a" || string(got.Data) != string(toA.Data) {
			t.Fatalf("read back %+v %v", got, err)
		}
		if byID, err := st.ByID(ctx, toB.ID); err != nil || byID.AppID != "app_b" {
			t.Fatalf("ByID %+v %v", byID, err)
		}
		if plain, err := st.ByID(ctx, plain.ID); err != nil || plain.AppID != "" {
			t.Fatalf("ByID of an unaddressed event %+v %v", plain, err)
		}
	})
}

func TestAddressedTypes(t *testing.T) {
	for _, typ := range events.Catalogue() {
		name := events.WireName(typ)
		auth := name == "authorization.granted" || name == "authorization.revoked" || name == "authorization.expiring"
		if events.Addressed(typ) != auth {
			t.Errorf("Addressed(%s) = %v", name, !auth)
		}
		if auth && events.ReadScope(typ) != "" {
			t.Errorf("ReadScope(%s) = %q, want none", name, events.ReadScope(typ))
		}
	}
}
