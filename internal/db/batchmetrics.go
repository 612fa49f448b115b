package db

import "github.com/prometheus/client_golang/prometheus"

// BatchCollector exposes the counts of d's read batchers (DB.ReadBatcher),
// read at scrape time, as mp_db_read_batch_round_trips_total and
// mp_db_read_batch_reads_total by statement: reads ÷ round trips is the mean
// batch, 1 when nothing queues.
func BatchCollector(d *DB) prometheus.Collector {
	return &batchCollector{db: d,
		roundTrips: prometheus.NewDesc("mp_db_read_batch_round_trips_total",
			"Round trips to PostgreSQL of the batched reads, by statement.", []string{"statement"}, nil),
		reads: prometheus.NewDesc("mp_db_read_batch_reads_total",
			"Reads the batched round trips carried, by statement.", []string{"statement"}, nil),
	}
}

type batchCollector struct {
	db                *DB
	roundTrips, reads *prometheus.Desc
}

func (c *batchCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.roundTrips
	ch <- c.reads
}

func (c *batchCollector) Collect(ch chan<- prometheus.Metric) {
	c.db.batchersMu.Lock()
	batchers := make([]*ReadBatcher, 0, len(c.db.batchers))
	for _, b := range c.db.batchers {
		batchers = append(batchers, b)
	}
	c.db.batchersMu.Unlock()
	for _, b := range batchers {
		st := b.Stats()
		ch <- prometheus.MustNewConstMetric(c.roundTrips, prometheus.CounterValue, float64(st.RoundTrips), b.cfg.Name)
		ch <- prometheus.MustNewConstMetric(c.reads, prometheus.CounterValue, float64(st.Reads), b.cfg.Name)
	}
}
