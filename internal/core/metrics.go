package core

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are core's RPC counters and latencies.
type Metrics struct {
	handled *prometheus.HistogramVec
}

// NewMetrics registers core's metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{handled: prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "mp",
		Subsystem: "core",
		Name:      "rpc_duration_seconds",
		Help:      "Duration of core RPCs by method and gRPC code.",
		Buckets:   []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"method", "code"})}
	reg.MustRegister(m.handled)
	return m
}

func (m *Metrics) observe(method, code string, d time.Duration) {
	m.handled.WithLabelValues(method, code).Observe(d.Seconds())
}
