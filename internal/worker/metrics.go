package worker

import (
	"context"
	"database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Metrics are the worker's job counters and durations.
type Metrics struct {
	jobs     *prometheus.CounterVec
	duration *prometheus.HistogramVec
	reg      prometheus.Registerer
}

// NewMetrics registers the worker's metrics on reg. The queue depth gauge is
// added by New, once the worker knows its database.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "mp", Subsystem: "worker", Name: "jobs_total",
			Help: "Job executions by kind and outcome (completed, retryable, discarded, cancelled, snoozed).",
		}, []string{"kind", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "mp", Subsystem: "worker", Name: "job_duration_seconds",
			Help:    "Time a job spent in its worker, by kind.",
			Buckets: []float64{.005, .01, .05, .1, .5, 1, 5, 10, 30, 60},
		}, []string{"kind"}),
		reg: reg,
	}
	reg.MustRegister(m.jobs, m.duration)
	return m
}

var subscribedEvents = []river.EventKind{
	river.EventKindJobCompleted, river.EventKindJobFailed,
	river.EventKindJobCancelled, river.EventKindJobSnoozed,
}

func (m *Metrics) record(ev *river.Event) {
	if m == nil || ev == nil || ev.Job == nil {
		return
	}
	outcome := "completed"
	switch ev.Kind {
	case river.EventKindJobFailed:
		outcome = "retryable"
		if ev.Job.State == rivertype.JobStateDiscarded {
			outcome = "discarded"
		}
	case river.EventKindJobCancelled:
		outcome = "cancelled"
	case river.EventKindJobSnoozed:
		outcome = "snoozed"
	}
	m.jobs.WithLabelValues(ev.Job.Kind, outcome).Inc()
	if ev.JobStats != nil {
		m.duration.WithLabelValues(ev.Job.Kind).Observe(ev.JobStats.RunDuration.Seconds())
	}
}

// queueDepth reports jobs waiting to run, counted at scrape time. River's
// (state, queue, priority, scheduled_at) index answers it without a scan of
// finished jobs; a scrape that cannot count within a second reports nothing.
// The queues the worker serves are reported even when empty (0), so a
// dashboard shows an idle queue rather than no data.
type queueDepth struct {
	db     *sql.DB
	desc   *prometheus.Desc
	served []string
}

func newQueueDepth(db *sql.DB, served ...string) *queueDepth {
	return &queueDepth{db: db, served: served, desc: prometheus.NewDesc("mp_worker_queue_available_jobs",
		"Jobs ready to run and not yet picked up, by queue.", []string{"queue"}, nil)}
}

func (q *queueDepth) Describe(ch chan<- *prometheus.Desc) { ch <- q.desc }

func (q *queueDepth) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	rows, err := q.db.QueryContext(ctx, "SELECT queue, count(*) FROM river_job WHERE state = 'available' GROUP BY queue")
	if err != nil {
		return
	}
	defer rows.Close()
	depth := make(map[string]int64, len(q.served))
	for _, queue := range q.served {
		depth[queue] = 0
	}
	for rows.Next() {
		var queue string
		var n int64
		if rows.Scan(&queue, &n) != nil {
			return
		}
		depth[queue] = n
	}
	if rows.Err() != nil {
		return
	}
	for queue, n := range depth {
		ch <- prometheus.MustNewConstMetric(q.desc, prometheus.GaugeValue, float64(n), queue)
	}
}
