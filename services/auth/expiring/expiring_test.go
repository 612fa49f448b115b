package expiring_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/app"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/services/auth/expiring"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/webhooks"
)

const day = 24 * time.Hour

// fixture is two apps with grants of two sellers, and a subscription of
// app A to authorization.expiring.
type fixture struct {
	d       *db.DB
	clk     *clock.Manual
	start   time.Time
	apps    map[string]*ent.App
	sub     *webhooks.Subscription
	grants  map[string]*ent.SellerAuthorization
	jobs    *worker.Inserter
	counter int
}

func newFixture(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	if err := db.MigrateRiver(ctx, d); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	f := &fixture{d: d, clk: clock.NewManual(start), start: start, apps: map[string]*ent.App{}, grants: map[string]*ent.SellerAuthorization{}}
	c := d.Ent
	acct := c.DeveloperAccount.Create().SetID("acc_1").SetName("Acme").SetEmail("dev@acme.example").SaveX(ctx)
	for _, name := range []string{"a", "b"} {
		f.apps[name] = c.App.Create().SetID("app_" + name).SetClientID("live_" + name).SetName("App " + name).
			SetAccountID(acct.ID).SetEnvironment(app.EnvironmentProduction).SetScopes([]string{"orders:read"}).
			SetSecretCiphertext([]byte("sealed")).SaveX(ctx)
	}
	for _, s := range []string{"sel_1", "sel_2"} {
		c.Seller.Create().SetID(s).SetName("Seller " + s).SetShopName("Shop " + s).ExecX(ctx)
	}
	c.WebhookSubscription.Create().SetID("whk_a").SetAppID("app_a").SetEventType("authorization.expiring").
		SetCallbackURL("https://hooks.acme.example/grants").SetIsActive(true).SetSecretCiphertext([]byte("sealed")).
		SetCreatedAt(start).SetUpdatedAt(start).ExecX(ctx)
	f.sub = &webhooks.Subscription{ID: "whk_a", AppID: "app_a", EventType: "authorization.expiring"}
	jobs, err := worker.NewInserter(d)
	if err != nil {
		t.Fatal(err)
	}
	f.jobs = jobs
	return f
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// grant adds app's grant of seller ending at ends (nil: not kept).
func (f *fixture) grant(t *testing.T, name, appName, seller string, ends *time.Time, set func(*ent.SellerAuthorizationCreate)) {
	t.Helper()
	f.counter++
	c := f.d.Ent.SellerAuthorization.Create().SetID("sau_" + name).SetAppID(f.apps[appName].ID).SetSellerID(seller).
		SetScopes([]string{"orders:read", "catalog:read"}).
		SetAccessTokenHash(hash(fmt.Sprint("access", f.counter))).SetAccessExpiresAt(f.start.Add(time.Hour)).
		SetRefreshTokenHash(hash(fmt.Sprint("refresh", f.counter))).SetRefreshExpiresAt(f.start.Add(30 * day)).
		SetNillableGrantExpiresAt(ends).SetCreatedAt(f.start.Add(-300 * day))
	if set != nil {
		set(c)
	}
	f.grants[name] = c.SaveX(context.Background())
}

// job is the job as the worker wires it: the recorder hands its events to
// the webhook deliveries in the recording transaction.
func (f *fixture) job(t *testing.T, d events.Dispatcher) *expiring.Job {
	t.Helper()
	if d == nil {
		d = webhooks.NewDispatcher(webhooks.NewEntStore(f.d), f.jobs, f.clk)
	}
	rec := events.NewRecorder(events.NewEntStore(f.d), f.clk).WithDispatcher(d)
	j, err := expiring.New(expiring.NewEntStore(f.d), rec, f.clk, nil)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func run(t *testing.T, j *expiring.Job) {
	t.Helper()
	if err := j.Work(context.Background(), &river.Job[expiring.Args]{}); err != nil {
		t.Fatal(err)
	}
}

// noticed is the expiring events recorded, by grant.
func (f *fixture) noticed(t *testing.T) map[string][]events.Event {
	t.Helper()
	out := map[string][]events.Event{}
	for _, seller := range []string{"sel_1", "sel_2"} {
		es, _, err := events.NewEntStore(f.d).List(context.Background(), seller,
			events.Filter{Types: []string{"authorization.expiring"}, Audience: events.Audience{AnyApp: true}}, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			out[e.ResourceID] = append(out[e.ResourceID], e)
		}
	}
	return out
}

func keys(m map[string][]events.Event) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func at(t time.Time) *time.Time { return &t }

// Each grant not revoked and not noticed whose end falls within the next 7
// days gets one authorization.expiring, addressed to its app, carrying the
// Grant, with its webhook delivery queued in the same transaction; a run
// later notices the grants that came within 7 days since, and none twice.
func TestExpiringGrantsAreNoticedOnce(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		now := f.start
		f.grant(t, "soon", "a", "sel_1", at(now.Add(3*day)), nil)
		f.grant(t, "edge", "b", "sel_2", at(now.Add(7*day)), nil)
		f.grant(t, "later", "a", "sel_2", at(now.Add(8*day)), nil)
		f.grant(t, "revoked", "a", "sel_1", at(now.Add(2*day)), func(c *ent.SellerAuthorizationCreate) { c.SetRevokedAt(now.Add(-day)) })
		f.grant(t, "told", "b", "sel_1", at(now.Add(day)), func(c *ent.SellerAuthorizationCreate) { c.SetExpiringNotifiedAt(now.Add(-day)) })
		f.grant(t, "ended", "b", "sel_1", at(now.Add(-time.Hour)), nil)
		f.grant(t, "unkept", "a", "sel_1", nil, nil)

		j := f.job(t, nil)
		run(t, j)
		got := f.noticed(t)
		if k := keys(got); !slices.Equal(k, []string{"sau_edge", "sau_soon"}) {
			t.Fatalf("noticed %v, want the grants ending within 7 days", k)
		}
		for _, c := range []struct{ grant, app, client, seller string }{
			{"soon", "app_a", "live_a", "sel_1"}, {"edge", "app_b", "live_b", "sel_2"},
		} {
			e := got["sau_"+c.grant][0]
			if len(got["sau_"+c.grant]) != 1 || e.AppID != c.app || e.SellerID != c.seller || !e.CreatedAt.Equal(now) {
				t.Errorf("%s: %+v", c.grant, got["sau_"+c.grant])
			}
			var data struct {
				ID        string   `json:"id"`
				SellerID  string   `json:"seller_id"`
				ClientID  string   `json:"client_id"`
				Scopes    []string `json:"scopes"`
				GrantedAt string   `json:"granted_at"`
				ExpiresAt string   `json:"expires_at"`
				RevokedAt *string  `json:"revoked_at"`
			}
			if err := json.Unmarshal(e.Data, &data); err != nil {
				t.Fatal(err)
			}
			g := f.grants[c.grant]
			if data.ID != g.ID || data.SellerID != c.seller || data.ClientID != c.client ||
				!slices.Equal(data.Scopes, []string{"orders:read", "catalog:read"}) ||
				data.GrantedAt != g.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z") ||
				data.ExpiresAt != g.GrantExpiresAt.UTC().Format("2006-01-02T15:04:05.000Z") || data.RevokedAt != nil {
				t.Errorf("%s: data %s", c.grant, e.Data)
			}
			row := d.Ent.SellerAuthorization.GetX(ctx, g.ID)
			if row.ExpiringNotifiedAt == nil || !row.ExpiringNotifiedAt.Equal(now) {
				t.Errorf("%s: expiring_notified_at %v, want %v", c.grant, row.ExpiringNotifiedAt, now)
			}
		}
		for _, name := range []string{"later", "revoked", "ended", "unkept"} {
			if row := d.Ent.SellerAuthorization.GetX(ctx, f.grants[name].ID); row.ExpiringNotifiedAt != nil {
				t.Errorf("%s marked noticed", name)
			}
		}
		// App A's subscription has its grant's event queued, not app B's.
		pending, err := webhooks.NewEntStore(d).Pending(ctx, f.sub, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(pending) != 1 || pending[0].EventID != got["sau_soon"][0].ID {
			t.Fatalf("queued deliveries %+v, want the event of app A's grant", pending)
		}

		// Again at once: nothing new.
		run(t, j)
		if again := f.noticed(t); len(again["sau_soon"]) != 1 || len(again["sau_edge"]) != 1 || len(again) != 2 {
			t.Fatalf("a second run noticed again: %v", again)
		}
		// A day later the next grant is within 7 days.
		f.clk.Advance(day + time.Minute)
		run(t, j)
		if later := f.noticed(t); !slices.Equal(keys(later), []string{"sau_edge", "sau_later", "sau_soon"}) || len(later["sau_later"]) != 1 ||
			later["sau_later"][0].AppID != "app_a" {
			t.Fatalf("a day later: %v", later)
		}
	})
}

// Two runs at once (two workers) notice each grant once.
func TestConcurrentRunsNoticeOnce(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		const n = 30
		for i := 0; i < n; i++ {
			f.grant(t, fmt.Sprintf("g%02d", i), []string{"a", "b"}[i%2], []string{"sel_1", "sel_2"}[i%2],
				at(f.start.Add(time.Duration(i+1)*time.Hour)), nil)
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			j := f.job(t, nil)
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = j.Work(context.Background(), &river.Job[expiring.Args]{})
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got := f.noticed(t)
		if len(got) != n {
			t.Fatalf("%d grants noticed, want %d", len(got), n)
		}
		for g, es := range got {
			if len(es) != 1 {
				t.Errorf("%s noticed %d times", g, len(es))
			}
		}
	})
}

type failing struct{}

func (failing) Dispatch(context.Context, []events.Event) error {
	return errors.New("queue unavailable")
}

// The mark, the event and its deliveries commit together: when queueing
// the deliveries fails, the grant stays unnoticed and no event remains, so
// the next run tries again.
func TestANoticeCommitsWithItsEvent(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.grant(t, "soon", "a", "sel_1", at(f.start.Add(day)), nil)
		if err := f.job(t, failing{}).Work(ctx, &river.Job[expiring.Args]{}); err == nil {
			t.Fatal("a failed notice reported success")
		}
		if got := f.noticed(t); len(got) != 0 {
			t.Fatalf("events after a failed notice: %v", got)
		}
		if row := d.Ent.SellerAuthorization.GetX(ctx, f.grants["soon"].ID); row.ExpiringNotifiedAt != nil {
			t.Fatal("the grant is marked though its event was not recorded")
		}
		run(t, f.job(t, nil))
		if got := f.noticed(t); len(got["sau_soon"]) != 1 {
			t.Fatalf("the next run: %v", got)
		}
	})
}

// Registered on a worker, the job is scheduled under its kind.
func TestRegister(t *testing.T) {
	d := dbtest.SQLite(t)
	jobs := worker.NewJobs()
	rec := events.NewRecorder(events.NewEntStore(d), nil)
	if err := expiring.Register(jobs, expiring.NewEntStore(d), rec, nil, nil); err != nil {
		t.Fatal(err)
	}
	if k := jobs.Kinds(); !slices.Equal(k, []string{expiring.Kind}) {
		t.Fatalf("kinds %v", k)
	}
	if _, err := expiring.New(expiring.NewEntStore(d), nil, nil, nil); err == nil {
		t.Fatal("a job without a recorder was built")
	}
}
