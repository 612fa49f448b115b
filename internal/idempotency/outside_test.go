package idempotency_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/idempotency"
)

// A call guarded outside the key's transaction sees no transaction (it
// commits its own steps), and its answer is kept all the same: the same key
// replays it without running the call again.
func TestOutsideTxKeepsTheAnswer(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		g, err := idempotency.New(idempotency.Config{Store: idempotency.NewEntStore(d.Ent)})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		req := idempotency.Request{Scope: "app:a", Key: "book", Fingerprint: "f", Method: "/m",
			Output: "google.protobuf.StringValue", OutsideTx: true}
		runs := 0
		call := func(ctx context.Context) (proto.Message, error) {
			runs++
			if _, inTx := db.TxFromContext(ctx); inTx {
				t.Error("the call runs inside the key's transaction")
			}
			return wrapperspb.String("booked"), nil
		}
		first, replay, err := g.Do(ctx, req, call)
		if err != nil || replay != nil || first.(*wrapperspb.StringValue).GetValue() != "booked" {
			t.Fatalf("first: %v %v %v", first, replay, err)
		}
		again, replay, err := g.Do(ctx, req, call)
		if err != nil || replay == nil || again.(*wrapperspb.StringValue).GetValue() != "booked" || runs != 1 {
			t.Fatalf("again: %v %v %v (runs %d)", again, replay, err, runs)
		}
	})
}
