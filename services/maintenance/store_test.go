package maintenance_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/maintenance"
)

// The store's contract on both databases: an environment never switched
// reads as off, a switch replaces the row (until set, then cleared), the
// environments are independent, and two replicas' stores agree.
func TestStoreContract(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			var d *db.DB
			if pg {
				d = dbtest.Postgres(t)
			} else {
				d = dbtest.SQLite(t)
			}
			ctx := context.Background()
			a, b := maintenance.NewEntStore(d), maintenance.NewEntStore(d)

			st, err := b.Get(ctx, maintenance.Production)
			if err != nil || st != (maintenance.State{Environment: maintenance.Production}) {
				t.Fatalf("never switched: %+v %v", st, err)
			}
			at := time.Date(2026, 11, 27, 3, 0, 0, 123e6, time.UTC)
			until := at.Add(90 * time.Minute)
			on := maintenance.State{Environment: maintenance.Production, On: true, Until: until,
				Message: "Database upgrade", SetBy: "ops (icl_1)", UpdatedAt: at}
			if err := a.Put(ctx, on); err != nil {
				t.Fatal(err)
			}
			if got, err := b.Get(ctx, maintenance.Production); err != nil || got != on {
				t.Fatalf("after on: %+v %v, want %+v", got, err, on)
			}
			if got, _ := b.Get(ctx, maintenance.Sandbox); got.On {
				t.Error("production's switch turned the sandbox on")
			}
			// Replaced without an until: the old until goes.
			again := maintenance.State{Environment: maintenance.Production, On: true, Message: "Longer than planned",
				SetBy: "ops (icl_1)", UpdatedAt: at.Add(time.Minute)}
			if err := a.Put(ctx, again); err != nil {
				t.Fatal(err)
			}
			if got, _ := b.Get(ctx, maintenance.Production); got != again {
				t.Fatalf("after the second on: %+v, want %+v", got, again)
			}
			off := maintenance.State{Environment: maintenance.Production, SetBy: "ops (icl_2)", UpdatedAt: at.Add(2 * time.Minute)}
			if err := b.Put(ctx, off); err != nil {
				t.Fatal(err)
			}
			if got, _ := a.Get(ctx, maintenance.Production); got != off {
				t.Fatalf("after off: %+v, want %+v", got, off)
			}
		})
	}
}

// The service refuses an unknown environment, an until not in the future
// and an overlong message, and stamps changes on its clock.
func TestServiceRules(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC))
	svc, err := maintenance.New(maintenance.Config{Store: maintenance.NewEntStore(dbtest.SQLite(t)), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"unknown environment": func() error { _, err := svc.Set(ctx, "staging", time.Time{}, ""); return err },
		"until now":           func() error { _, err := svc.Set(ctx, maintenance.Sandbox, clk.Now(), ""); return err },
		"until past":          func() error { _, err := svc.Set(ctx, maintenance.Sandbox, clk.Now().Add(-time.Hour), ""); return err },
		"long message": func() error {
			_, err := svc.Set(ctx, maintenance.Sandbox, time.Time{}, string(make([]byte, maintenance.MaxMessageLen+1)))
			return err
		},
		"clear unknown": func() error { _, err := svc.Clear(ctx, "staging"); return err },
		"get unknown":   func() error { _, err := svc.Get(ctx, ""); return err },
	} {
		if e, ok := apierr.As(call()); !ok || e.Code != apierr.ValidationError {
			t.Errorf("%s: %v, want VALIDATION_ERROR", name, e)
		}
	}
	st, err := svc.Set(ctx, maintenance.Sandbox, clk.Now().Add(time.Hour), "Upgrade")
	if err != nil || !st.On || !st.UpdatedAt.Equal(clk.Now()) || !st.Until.Equal(clk.Now().Add(time.Hour)) {
		t.Fatalf("set: %+v %v", st, err)
	}
	if got, _ := svc.Get(ctx, maintenance.Sandbox); got != st {
		t.Errorf("read back %+v, want %+v", got, st)
	}
	if st, err := svc.Clear(ctx, maintenance.Sandbox); err != nil || st.On {
		t.Fatalf("clear: %+v %v", st, err)
	}
	if st, err := svc.Clear(ctx, maintenance.Sandbox); err != nil || st.On {
		t.Errorf("clearing again: %+v %v, want no error", st, err)
	}
}
