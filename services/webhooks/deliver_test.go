package webhooks_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/order"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/ent/webhookdelivery"
	"github.com/mallplatform/partnerapi/ent/webhooksubscription"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/sdk/webhook"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/webhooks"
	"github.com/mallplatform/partnerapi/services/webhooks/callback"
)

// receiver is a local HTTPS endpoint that answers each request with the
// next status of its script (200 once the script is spent).
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	script []int
	got    []*http.Request
	bodies [][]byte
	seen   chan struct{}
}

func newReceiver(t *testing.T, script ...int) *receiver {
	r := &receiver{script: script, seen: make(chan struct{}, 16)}
	r.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got, r.bodies = append(r.got, req), append(r.bodies, body)
		status := http.StatusOK
		if len(r.script) > 0 {
			status, r.script = r.script[0], r.script[1:]
		}
		r.mu.Unlock()
		w.WriteHeader(status)
		r.seen <- struct{}{}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) wait(t *testing.T) {
	t.Helper()
	select {
	case <-r.seen:
	case <-time.After(30 * time.Second):
		t.Fatal("the receiver got nothing")
	}
}

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// startWorker runs the delivery job over env's database, trusting the test
// receivers' certificate; its delivery metrics are on the registry returned.
func startWorker(t testing.TB, env *testenv.Env, pool *x509.CertPool) *prometheus.Registry {
	t.Helper()
	sealer, err := auth.NewSealer(env.SecretKey)
	if err != nil {
		t.Fatal(err)
	}
	policy := callback.Policy{Allow: loopback}
	store := webhooks.NewEntStore(env.DB)
	svc, err := webhooks.NewService(webhooks.Config{Store: store, Sealer: sealer, Callbacks: policy})
	if err != nil {
		t.Fatal(err)
	}
	jobs := worker.NewJobs()
	reg := prometheus.NewRegistry()
	d := webhooks.NewDeliverer(svc, store, events.NewEntStore(env.DB), nil).WithRootCAs(pool).
		WithMetrics(webhooks.NewMetrics(reg))
	if err := worker.Add[webhooks.DeliverArgs](jobs, d); err != nil {
		t.Fatal(err)
	}
	if err := jobs.AddQueue(webhooks.Queue, webhooks.DefaultConcurrency); err != nil {
		t.Fatal(err)
	}
	w, err := worker.New(worker.Config{DB: env.DB, Jobs: jobs, PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Drain(context.Background()) })
	return reg
}

// counts reads a counter vector by its one label's values.
func counts(t *testing.T, reg *prometheus.Registry, name string) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			out[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
		}
	}
	return out
}

func subscribe(t *testing.T, env *testenv.Env, url string) (id, secret string) {
	t.Helper()
	status, _, body := send(t, env.Client(t, "full", -1), "POST", "/open/v1/webhooks",
		fmt.Sprintf(`{"eventType":"order.cancelled","callbackUrl":%q}`, url))
	var created struct {
		Data struct{ ID, Secret string } `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &created); status != 201 || err != nil {
		t.Fatalf("subscribe: %d %s", status, body)
	}
	return created.Data.ID, created.Data.Secret
}

func cancelOne(t *testing.T, env *testenv.Env) string {
	t.Helper()
	o, err := env.DB.Ent.Order.Query().Where(order.SellerID(env.Creds.Sellers[0].SellerID),
		order.StatusIn(order.StatusPending, order.StatusPaid, order.StatusReadyToShip)).Order(ent.Asc(order.FieldID)).First(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if status, _, body := send(t, env.Client(t, "full", 0), "POST", "/open/v1/orders/"+o.ID+"/cancel", ""); status != 200 {
		t.Fatalf("cancel: %d %s", status, body)
	}
	return o.ID
}

// A change's event reaches the subscribed receiver, signed the Standard
// Webhooks way, without buyerEmail; failures are logged and retried; 410
// disables the subscription.
func TestDeliveries(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg, WebhookAllow: loopback})
			ctx := context.Background()
			ok := newReceiver(t, http.StatusInternalServerError)
			gone := newReceiver(t, http.StatusGone)
			okID, secret := subscribe(t, env, ok.srv.URL+"/hooks")
			goneID, _ := subscribe(t, env, gone.srv.URL+"/hooks")
			pool := x509.NewCertPool()
			pool.AddCert(ok.srv.Certificate())
			pool.AddCert(gone.srv.Certificate())
			reg := startWorker(t, env, pool)

			orderID := cancelOne(t, env)
			ok.wait(t)   // the first attempt: 500
			gone.wait(t) // 410
			ok.wait(t)   // the retry, five seconds later: 200

			ok.mu.Lock()
			req, body := ok.got[1], ok.bodies[1]
			first := ok.got[0]
			ok.mu.Unlock()
			var ev struct {
				ID, Type string
				Data     map[string]any
			}
			if err := json.Unmarshal(body, &ev); err != nil || ev.Type != "order.cancelled" || ev.Data["id"] != orderID {
				t.Fatalf("payload: %s", body)
			}
			if _, leaked := ev.Data["buyerEmail"]; leaked {
				t.Error("the payload carries buyerEmail")
			}
			if req.Header.Get("webhook-id") != ev.ID || first.Header.Get("webhook-id") != ev.ID {
				t.Errorf("webhook-id %q / %q, want the event id %s on every attempt", first.Header.Get("webhook-id"), req.Header.Get("webhook-id"), ev.ID)
			}
			ts, err := strconv.ParseInt(req.Header.Get("webhook-timestamp"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			want, err := webhook.Sign(ev.ID, time.Unix(ts, 0), body, []string{secret})
			if err != nil || req.Header.Get("webhook-signature") != want {
				t.Errorf("webhook-signature %q, want %q", req.Header.Get("webhook-signature"), want)
			}

			// The log and the health.
			// (the attempt is logged once the answer is in: wait for it)
			var attempts []*ent.WebhookDelivery
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if attempts, err = env.DB.Ent.WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(okID)).
					Order(ent.Asc(webhookdelivery.FieldAttempt)).All(ctx); err != nil || len(attempts) == 2 {
					break
				}
			}
			if err != nil || len(attempts) != 2 || attempts[0].Status != webhookdelivery.StatusFailed || attempts[0].NextAttemptAt == nil ||
				attempts[1].Status != webhookdelivery.StatusSucceeded || *attempts[1].ResponseStatus != 200 {
				t.Fatalf("attempts: %+v %v", attempts, err)
			}
			sub, err := env.DB.Ent.WebhookSubscription.Query().Where(webhooksubscription.ID(okID)).Only(ctx)
			if err != nil || sub.ConsecutiveFailures != 0 || !sub.IsActive {
				t.Errorf("after a success: %+v %v", sub, err)
			}
			// What a partner sees and does: the log, a retry, a replay, a test.
			full := env.Client(t, "full", -1)
			status, _, listBody := send(t, full, "GET", "/open/v1/webhooks/"+okID+"/deliveries", "")
			var log struct {
				Data []struct {
					ID, Status    string
					Attempt       int64
					NextAttemptAt *string `json:"nextAttemptAt"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(listBody), &log); status != 200 || err != nil || len(log.Data) != 2 ||
				log.Data[0].Status != "succeeded" || log.Data[1].Status != "failed" || log.Data[1].NextAttemptAt == nil {
				t.Fatalf("deliveries: %d %s", status, listBody)
			}
			if status, _, body := send(t, full, "POST", "/open/v1/webhooks/"+okID+"/deliveries/"+log.Data[1].ID+"/retry", ""); status != 202 ||
				!strings.Contains(body, `"queued":1`) {
				t.Fatalf("retry: %d %s", status, body)
			}
			ok.wait(t)
			if status, _, body := send(t, full, "POST", "/open/v1/webhooks/test", `{"subscriptionId":"`+okID+`"}`); status != 202 {
				t.Fatalf("test: %d %s", status, body)
			}
			ok.wait(t)
			since := env.Clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
			if status, _, body := send(t, full, "POST", "/open/v1/webhooks/"+okID+"/replay", `{"since":"`+since+`"}`); status != 202 ||
				!strings.Contains(body, `"queued":1`) {
				t.Fatalf("replay: %d %s", status, body)
			}
			ok.wait(t)
			tooOld := env.Clock.Now().Add(-31 * 24 * time.Hour).UTC().Format(time.RFC3339)
			if status, code, _ := send(t, full, "POST", "/open/v1/webhooks/"+okID+"/replay", `{"since":"`+tooOld+`"}`); status != 400 || code != "VALIDATION_ERROR" {
				t.Errorf("a replay 31 days back: %d %s", status, code)
			}
			// A paused subscription's retry is refused: its job would be
			// dropped without an attempt.
			if status, _, body := send(t, full, "PUT", "/open/v1/webhooks/"+okID, `{"isActive":false}`); status != 200 {
				t.Fatalf("pause: %d %s", status, body)
			}
			if status, code, body := send(t, full, "POST", "/open/v1/webhooks/"+okID+"/deliveries/"+log.Data[1].ID+"/retry", ""); status != 409 ||
				code != "CONFLICT" || !strings.Contains(body, "paused") {
				t.Errorf("a retry on a paused subscription: %d %s", status, body)
			}
			if status, _, body := send(t, full, "PUT", "/open/v1/webhooks/"+okID, `{"isActive":true}`); status != 200 {
				t.Fatalf("resume: %d %s", status, body)
			}
			ok.mu.Lock()
			retried, tested, replayed := ok.got[2], ok.bodies[3], ok.got[4]
			ok.mu.Unlock()
			if retried.Header.Get("webhook-id") != ev.ID || replayed.Header.Get("webhook-id") != ev.ID {
				t.Errorf("retry and replay carry webhook-id %q and %q, want %s", retried.Header.Get("webhook-id"), replayed.Header.Get("webhook-id"), ev.ID)
			}
			if !strings.Contains(string(tested), `"test":true`) || !strings.Contains(string(tested), `"type":"order.cancelled"`) {
				t.Errorf("test event: %s", tested)
			}
			if status, _, _ := send(t, env.Client(t, "limited", -1), "GET", "/open/v1/webhooks/"+okID+"/deliveries", ""); status != 404 {
				t.Errorf("another app reads the log: %d", status)
			}

			deadline := time.Now().Add(10 * time.Second)
			for {
				g, err := env.DB.Ent.WebhookSubscription.Get(ctx, goneID)
				if err != nil {
					t.Fatal(err)
				}
				if !g.IsActive && g.DisabledReason != nil {
					if c := counts(t, reg, "mp_webhook_subscriptions_disabled_total"); c["gone"] != 1 {
						t.Errorf("disabled: %v", c)
					}
					if c := counts(t, reg, "mp_webhook_delivery_attempts_total"); c["5xx"] < 1 || c["2xx"] < 1 || c["gone"] != 1 {
						t.Errorf("attempts: %v", c)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("410 did not disable the subscription: %+v", g)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

// One resource's events reach a subscription in sequence order, whatever
// the worker's concurrency.
func TestDeliveriesInSequenceOrder(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true, WebhookAllow: loopback})
	rcv := newReceiver(t)
	full := env.Client(t, "full", -1)
	status, _, body := send(t, full, "POST", "/open/v1/webhooks",
		fmt.Sprintf(`{"eventType":"product.updated","callbackUrl":%q}`, rcv.srv.URL+"/products"))
	if status != 201 {
		t.Fatalf("subscribe: %d %s", status, body)
	}
	seller := env.Client(t, "full", 0)
	p, err := env.DB.Ent.Product.Query().Where(product.SellerID(env.Creds.Sellers[0].SellerID)).First(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	for i := 0; i < n; i++ {
		if status, _, body := send(t, seller, "PUT", "/open/v1/products/"+p.ID, fmt.Sprintf(`{"title":"Renamed product number %d"}`, i)); status != 200 {
			t.Fatalf("update %d: %d %s", i, status, body)
		}
	}
	pool := x509.NewCertPool()
	pool.AddCert(rcv.srv.Certificate())
	startWorker(t, env, pool)
	for i := 0; i < n; i++ {
		rcv.wait(t)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	for i, b := range rcv.bodies {
		var ev struct{ Sequence int64 }
		if err := json.Unmarshal(b, &ev); err != nil || ev.Sequence != int64(i+2) {
			t.Errorf("delivery %d has sequence %d, want %d (product.created is 1)", i, ev.Sequence, i+2)
		}
	}
}

// A delivery queued and not attempted yet is in the log as pending.
func TestPendingDeliveries(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg})
			id, _ := subscribe(t, env, "https://hooks.partner.example/in")
			cancelOne(t, env)
			status, _, body := send(t, env.Client(t, "full", -1), "GET", "/open/v1/webhooks/"+id+"/deliveries", "")
			var log struct {
				Data []struct {
					EventID       string  `json:"eventId"`
					EventType     string  `json:"eventType"`
					Status        string  `json:"status"`
					NextAttemptAt *string `json:"nextAttemptAt"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(body), &log); status != 200 || err != nil || len(log.Data) != 1 ||
				log.Data[0].Status != "pending" || log.Data[0].EventType != "order.cancelled" ||
				!strings.HasPrefix(log.Data[0].EventID, "evt_") || log.Data[0].NextAttemptAt == nil {
				t.Fatalf("deliveries: %d %s", status, body)
			}
		})
	}
}
