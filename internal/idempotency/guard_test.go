package idempotency_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/idempotency"
)

// Keys older than the cutoff go; younger ones stay.
func TestPurgeDeletesKeysCreatedBefore(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		store := idempotency.NewEntStore(d.Ent)
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		for key, at := range map[string]time.Time{"old": now.Add(-25 * time.Hour), "older": now.Add(-48 * time.Hour), "fresh": now.Add(-time.Hour)} {
			if _, err := store.Claim(ctx, idempotency.Claim{Scope: "app:a", Key: key, Method: "/m", Holder: "h", Now: at, LockedUntil: at.Add(time.Minute)}); err != nil {
				t.Fatal(err)
			}
		}
		n, err := store.Purge(ctx, now.Add(-idempotency.Retention))
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("purged %d, want 2", n)
		}
		left, err := d.Ent.IdempotencyKey.Query().All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(left) != 1 || left[0].Key != "fresh" {
			t.Errorf("left after purge: %v, want only fresh", left)
		}
	})
}

// An attempt that outlived its lease and lost the key to a retry cannot
// commit: its write rolls back with the key, the retry's result stands.
func TestAttemptThatLostItsLeaseRollsBack(t *testing.T) {
	d := dbtest.Postgres(t)
	clk := clock.NewManual(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	g, err := idempotency.New(idempotency.Config{Store: idempotency.NewEntStore(d.Ent), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	req := idempotency.Request{Scope: "app:a", Key: "slow", Fingerprint: "f", Method: "/m", Output: "google.protobuf.StringValue",
		RequestID: "req_slow"}
	retryReq := req
	retryReq.RequestID = "req_retry"
	var retry proto.Message
	_, _, err = g.Do(context.Background(), req, func(ctx context.Context) (proto.Message, error) {
		if _, err := db.Client(ctx, d.Ent).Seller.Create().SetID("slr_slow").SetName("x").SetShopName("x").Save(ctx); err != nil {
			return nil, err
		}
		// The attempt stalls past its lease; a retry takes the key over
		// and completes it.
		clk.Advance(idempotency.DefaultLease + time.Second)
		var rerr error
		retry, _, rerr = g.Do(context.Background(), retryReq, func(context.Context) (proto.Message, error) {
			return wrapperspb.String("retry"), nil
		})
		if rerr != nil {
			t.Errorf("retry after the lease: %v", rerr)
		}
		return wrapperspb.String("slow"), nil
	})
	if e, ok := apierr.As(err); !ok || apierr.Name(e.Code) != "IDEMPOTENCY_KEY_IN_PROGRESS" {
		t.Errorf("stalled attempt: %v, want IDEMPOTENCY_KEY_IN_PROGRESS", err)
	}
	if _, err := d.Ent.Seller.Get(context.Background(), "slr_slow"); !ent.IsNotFound(err) {
		t.Errorf("the stalled attempt's write: %v, want rolled back", err)
	}
	got, replayed, err := g.Do(context.Background(), req, func(context.Context) (proto.Message, error) {
		return nil, errors.New("must not run again")
	})
	// The answer kept is the retry's, under the retry's request id.
	if err != nil || replayed == nil || replayed.RequestID != "req_retry" || !proto.Equal(got, retry) {
		t.Errorf("after both: %v replayed=%+v err=%v, want the retry's answer (req_retry) replayed", got, replayed, err)
	}
}

// A final refusal (404) is kept and replayed; a failure a retry may clear
// (here the platform's own) releases the key.
func TestErrorAnswersKeptOrReleased(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		g, err := idempotency.New(idempotency.Config{Store: idempotency.NewEntStore(d.Ent)})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		nf := idempotency.Request{Scope: "app:a", Key: "nf", Fingerprint: "f", Method: "/m", Output: "google.protobuf.StringValue"}
		runs := 0
		notFound := func(context.Context) (proto.Message, error) {
			runs++
			return nil, apierr.New(apierr.NotFound, "product not found")
		}
		for range 2 {
			_, _, err := g.Do(ctx, nf, notFound)
			if apierr.CodeOf(err) != apierr.NotFound {
				t.Fatalf("not found: %v", err)
			}
		}
		if runs != 1 {
			t.Errorf("a kept 404 ran %d times, want 1", runs)
		}
		tr := idempotency.Request{Scope: "app:a", Key: "transient", Fingerprint: "f", Method: "/m", Output: "google.protobuf.StringValue"}
		runs = 0
		for range 2 {
			_, _, _ = g.Do(ctx, tr, func(context.Context) (proto.Message, error) {
				runs++
				return nil, errors.New("database gone")
			})
		}
		if runs != 2 {
			t.Errorf("a released key's request ran %d times, want 2", runs)
		}
	})
}
