package db_test

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// The pool's statistics are read at scrape time under Prometheus's names.
func TestPoolCollector(t *testing.T) {
	d := dbtest.Postgres(t) // MaxOpenConns 8
	reg := prometheus.NewRegistry()
	reg.MustRegister(db.PoolCollector(d.Pool))
	before := sample(t, reg, "mp_db_pool_acquires_total", "")
	conn, err := d.Pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := sample(t, reg, "mp_db_pool_connections", "acquired"); got != 1 {
		t.Errorf("acquired connections = %v, want 1", got)
	}
	conn.Release()
	if got := sample(t, reg, "mp_db_pool_acquires_total", ""); got != before+1 {
		t.Errorf("acquires_total = %v, want %v", got, before+1)
	}
	if got := sample(t, reg, "mp_db_pool_max_connections", ""); got != 8 {
		t.Errorf("max_connections = %v, want 8", got)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// sample is the value of name (with the given state label, if any).
func sample(t *testing.T, reg *prometheus.Registry, name, state string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if state != "" && (len(m.GetLabel()) != 1 || m.GetLabel()[0].GetValue() != state) {
				continue
			}
			return m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
	}
	t.Fatalf("no %s{state=%q}", name, state)
	return 0
}
