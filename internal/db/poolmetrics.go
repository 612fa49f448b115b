package db

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// PoolCollector exposes a pgx pool's statistics (pgxpool.Stat, read at
// scrape time) as mp_db_pool_*: connections by state and the pool's cap,
// acquisitions, the ones that had to wait for a connection and for how
// long, cancelled ones, and connections opened and closed.
func PoolCollector(pool *pgxpool.Pool) prometheus.Collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("mp_db_pool_"+name, help, labels, nil)
	}
	return &poolCollector{
		pool:         pool,
		conns:        d("connections", "Connections of the PostgreSQL pool by state (acquired, idle, constructing).", "state"),
		maxConns:     d("max_connections", "The pool's cap on connections (MP_DB_MAX_CONNS or pool_max_conns)."),
		acquires:     d("acquires_total", "Connections handed out by the pool."),
		acquireSecs:  d("acquire_duration_seconds_total", "Time spent acquiring connections, waits included."),
		emptyAcq:     d("empty_acquires_total", "Acquisitions that found no idle connection and waited for one to be made or released."),
		emptyWait:    d("empty_acquire_wait_seconds_total", "Time spent by acquisitions that found the pool empty."),
		canceledAcq:  d("canceled_acquires_total", "Acquisitions whose context ended before they got a connection."),
		newConns:     d("new_connections_total", "Connections opened to PostgreSQL."),
		destroyConns: d("closed_connections_total", "Connections closed by the pool for their age (max_lifetime) or idleness (max_idle).", "reason"),
	}
}

type poolCollector struct {
	pool                                                        *pgxpool.Pool
	conns, maxConns, acquires, acquireSecs, emptyAcq, emptyWait *prometheus.Desc
	canceledAcq, newConns, destroyConns                         *prometheus.Desc
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.conns, c.maxConns, c.acquires, c.acquireSecs, c.emptyAcq, c.emptyWait, c.canceledAcq, c.newConns, c.destroyConns} {
		ch <- d
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	gauge(c.conns, float64(s.AcquiredConns()), "acquired")
	gauge(c.conns, float64(s.IdleConns()), "idle")
	gauge(c.conns, float64(s.ConstructingConns()), "constructing")
	gauge(c.maxConns, float64(s.MaxConns()))
	counter(c.acquires, float64(s.AcquireCount()))
	counter(c.acquireSecs, s.AcquireDuration().Seconds())
	counter(c.emptyAcq, float64(s.EmptyAcquireCount()))
	counter(c.emptyWait, s.EmptyAcquireWaitTime().Seconds())
	counter(c.canceledAcq, float64(s.CanceledAcquireCount()))
	counter(c.newConns, float64(s.NewConnsCount()))
	counter(c.destroyConns, float64(s.MaxLifetimeDestroyCount()), "max_lifetime")
	counter(c.destroyConns, float64(s.MaxIdleDestroyCount()), "max_idle")
}
