package webhooks_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/webhooks"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// exampleResolver answers every name under .example with a public address,
// so the real callback policy runs without a network.
type exampleResolver struct{}

func (exampleResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if strings.HasSuffix(host, ".example") {
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func code(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return apierr.Name(e.Code)
	}
	return ""
}

func newService(t *testing.T, d *db.DB, clk clock.Clock) *webhooks.Service {
	t.Helper()
	sealer, err := auth.NewSealer(auth.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := webhooks.NewService(webhooks.Config{Store: webhooks.NewEntStore(d), Sealer: sealer,
		Callbacks: callback.Policy{Resolver: exampleResolver{}}, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func as(appID, env string, scopes ...string) context.Context {
	return principal.NewContext(context.Background(), &principal.Principal{AppID: appID, ClientID: "test_" + appID,
		Environment: env, Scopes: scopes})
}

func TestSubscriptions(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		clk := clock.NewManual(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC))
		svc := newService(t, d, clk)
		orders := as("app_a", auth.EnvProduction, "orders:read")
		created := eventsv1.EventType_EVENT_TYPE_ORDER_CREATED

		v, err := svc.Create(orders, created, "https://hooks.acme.example/mp")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(v.Secret, "whsec_") || !v.Active || v.EventType != "order.created" {
			t.Fatalf("created: %+v", v)
		}
		// The secret is sealed at rest and opens to what was shown.
		if strings.Contains(string(v.Subscription.Secret), v.Secret) {
			t.Fatal("the secret is stored in the clear")
		}
		if got, err := svc.Secrets(v.Subscription, clk.Now()); err != nil || len(got) != 1 || got[0] != v.Secret {
			t.Fatalf("secrets: %v %v", got, err)
		}

		if _, err := svc.Create(orders, created, "https://hooks.acme.example/mp"); code(err) != "WEBHOOK_SUBSCRIPTION_EXISTS" {
			t.Errorf("the same type and URL twice: %v", err)
		}
		if _, err := svc.Create(orders, eventsv1.EventType_EVENT_TYPE_PRODUCT_CREATED, "https://hooks.acme.example/mp"); code(err) != "FORBIDDEN" {
			t.Errorf("product events without catalog:read: %v", err)
		}
		if _, err := svc.Create(orders, created, "http://hooks.acme.example/mp"); code(err) != "VALIDATION_ERROR" {
			t.Errorf("http for a live app: %v", err)
		}
		if _, err := svc.Create(as("app_s", auth.EnvSandbox, "orders:read"), created, "http://hooks.acme.example/mp"); err != nil {
			t.Errorf("http for a sandbox app: %v", err)
		}

		// Another app sees none of it: the same 404 as a missing id.
		other := as("app_b", auth.EnvProduction, "orders:read")
		if _, err := svc.Get(other, v.ID); code(err) != "NOT_FOUND" {
			t.Errorf("another app's subscription: %v", err)
		}
		if err := svc.Delete(other, v.ID); code(err) != "NOT_FOUND" {
			t.Errorf("another app deletes: %v", err)
		}
		if list, err := svc.List(other); err != nil || len(list) != 0 {
			t.Errorf("another app lists %v %v", list, err)
		}

		// Pause, move, resume.
		off := false
		clk.Advance(time.Minute)
		u, err := svc.Update(orders, v.ID, nil, &off)
		if err != nil || u.Active || !u.UpdatedAt.After(v.UpdatedAt) {
			t.Fatalf("pause: %+v %v", u, err)
		}
		next := "https://other.acme.example/in"
		if u, err = svc.Update(orders, v.ID, &next, nil); err != nil || u.URL != next || u.Active {
			t.Fatalf("move: %+v %v", u, err)
		}
		bad := "https://127.0.0.1/in"
		if _, err := svc.Update(orders, v.ID, &bad, nil); code(err) != "VALIDATION_ERROR" {
			t.Errorf("a refused URL on update: %v", err)
		}

		// Rotation: both secrets sign for 24 hours, then the new one alone.
		r, err := svc.RotateSecret(orders, v.ID)
		if err != nil || r.Secret == v.Secret {
			t.Fatalf("rotate: %v", err)
		}
		got, err := svc.Secrets(r.Subscription, clk.Now())
		if err != nil || len(got) != 2 || got[0] != r.Secret || got[1] != v.Secret {
			t.Fatalf("during the overlap: %v %v", got, err)
		}
		if got, _ := svc.Secrets(r.Subscription, clk.Now().Add(webhooks.RotationOverlap)); len(got) != 1 || got[0] != r.Secret {
			t.Errorf("after the overlap: %v", got)
		}

		list, err := svc.List(orders)
		if err != nil || len(list) != 1 || list[0].ID != v.ID {
			t.Fatalf("list: %+v %v", list, err)
		}
		if err := svc.Delete(orders, v.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Get(orders, v.ID); code(err) != "NOT_FOUND" {
			t.Errorf("after delete: %v", err)
		}
		if _, err := svc.List(context.Background()); code(err) != "FORBIDDEN" {
			t.Errorf("a caller that is no app: %v", err)
		}
	})
}
