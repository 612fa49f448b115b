package cancellation_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/platform"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/returns/cancellation"
)

// TestApproveAndRejectRace: the seller's approval and rejection of one
// request race; exactly one wins, the other hears that the request was
// processed, and the order is cancelled only if the approval won.
func TestApproveAndRejectRace(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg, BusinessClock: true, Unlimited: true})
			env.Business.Set(time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC))
			c := env.Client(t, "full", 0)
			for round := range 4 {
				id := testOrder(t, c)
				data[wireRequest](t, ask(c, t, id), http.StatusCreated)
				answers := make([]*sdk.Response, 2)
				var wg sync.WaitGroup
				wg.Go(func() { answers[0] = approve(t, c, id, fmt.Sprintf("race-a-%d", round)) })
				wg.Go(func() { answers[1] = reject(t, c, id, fmt.Sprintf("race-r-%d", round)) })
				wg.Wait()
				ok := 0
				for _, a := range answers {
					if a.Status == http.StatusOK {
						ok++
						continue
					}
					wantError(t, "the losing answer", a, http.StatusUnprocessableEntity, "CANCELLATION_ALREADY_PROCESSED")
				}
				if ok != 1 {
					t.Fatalf("round %d: %d answers won", round, ok)
				}
				o := order(t, c, id)
				if approvedWon := answers[0].Status == http.StatusOK; approvedWon != (o.Status == "CANCELLED") ||
					(approvedWon && o.CancellationRequest.Status != "APPROVED") || (!approvedWon && o.CancellationRequest.Status != "REJECTED") {
					t.Errorf("round %d: approval won %v, order %s with request %s", round, approvedWon, o.Status, o.CancellationRequest.Status)
				}
				if ev := eventTypes(t, env, id); ev["order.cancelled"] > 1 {
					t.Errorf("round %d: order events %v", round, ev)
				}
			}
		})
	}
}

// TestJobAndReadsRace: after the test shop's sandbox clock jumps past the
// requests' deadlines, the deadline job (sweeping the moved shop on its own
// clock) and order reads settle them at once; each request is
// auto-approved once, with one cancellation.auto_approved, and its order
// cancelled once.
func TestJobAndReadsRace(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg, Unlimited: true})
			c := env.Client(t, "full", 0)
			const n = 8
			ids := make([]string, n)
			requests := make([]string, n)
			for i := range ids {
				ids[i] = testOrder(t, c)
				requests[i] = data[wireRequest](t, ask(c, t, ids[i]), http.StatusCreated).ID
			}
			// Requests no reader reads: only the job settles them.
			unread := []string{data[wireRequest](t, ask(c, t, testOrder(t, c)), http.StatusCreated).ID,
				data[wireRequest](t, ask(c, t, testOrder(t, c)), http.StatusCreated).ID}
			// The worker's parts over the same database and wall clock:
			// each test shop's business clock read from the database.
			parts, err := platform.NewParts(platform.PartsConfig{DB: env.DB, SecretKey: env.SecretKey, Clock: env.Clock})
			if err != nil {
				t.Fatal(err)
			}
			job, err := deadline.NewJob[cancellation.DeadlineArgs](parts.Cancellations.Subject(),
				deadline.JobConfig{Business: parts.Business, Shops: deadline.NewEntShops(env.DB.Ent)})
			if err != nil {
				t.Fatal(err)
			}
			if n, err := job.Run(context.Background()); err != nil || n != 0 {
				t.Fatalf("before the jump the job moved %d, %v", n, err)
			}
			// The sandbox clock jumps 48 hours and a minute.
			advance := fmt.Sprintf(`{"advance_seconds":%d}`, int((cancellation.ResponseWindow + time.Minute).Seconds()))
			if resp := send(t, c, http.MethodPost, "/open/v1/sandbox/clock", "", advance); resp.Status != http.StatusOK {
				t.Fatalf("clock: %d %s", resp.Status, resp.Body)
			}

			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for range 2 {
				wg.Go(func() {
					if _, err := job.Run(context.Background()); err != nil {
						errs <- err
					}
				})
			}
			for r := range 2 {
				wg.Go(func() {
					for i := range n {
						id := ids[(i+r*3)%n]
						resp, err := c.DoSigned(context.Background(), sdk.Request{Method: http.MethodGet, Path: "/open/v1/orders/" + id})
						if err != nil || resp.Status != http.StatusOK {
							errs <- fmt.Errorf("read %s: %v %v", id, resp, err)
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			for i, id := range ids {
				if o := order(t, c, id); o.Status != "CANCELLED" || o.CancellationRequest.Status != "AUTO_APPROVED" {
					t.Errorf("%s: %s with request %+v", id, o.Status, o.CancellationRequest)
				}
				if ev := eventTypes(t, env, id); ev["order.cancelled"] != 1 {
					t.Errorf("%s: order events %v", id, ev)
				}
				if ev := eventTypes(t, env, requests[i]); ev["cancellation.auto_approved"] != 1 || len(ev) != 2 {
					t.Errorf("%s: request events %v", requests[i], ev)
				}
			}
			seller := env.Creds.Sellers[0].SellerID
			for _, id := range unread {
				r, err := cancellation.NewEntStore(env.DB).Get(context.Background(), seller, id)
				if err != nil || r.Status != cancellation.AutoApproved {
					t.Errorf("%s, read by nobody: %+v %v; want the job's AUTO_APPROVED", id, r, err)
				}
			}
			if n := eventCount(t, env, "cancellation.auto_approved"); n != len(ids)+len(unread) {
				t.Errorf("%d auto-approvals recorded", n)
			}
		})
	}
}
