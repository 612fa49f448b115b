package core

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc/codes"
)

// Metrics are core's RPC counters and latencies.
type Metrics struct {
	handled *prometheus.HistogramVec
	// series keeps each method and code's histogram once resolved, so a
	// call does not hash its labels and take the vector's lock; the methods
	// are core's registered ones and the codes gRPC's.
	series sync.Map // methodCode → prometheus.Observer
}

type methodCode struct {
	method string
	code   codes.Code
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

func (m *Metrics) observe(method string, code codes.Code, d time.Duration) {
	key := methodCode{method, code}
	o, ok := m.series.Load(key)
	if !ok {
		o, _ = m.series.LoadOrStore(key, m.handled.WithLabelValues(method, code.String()))
	}
	o.(prometheus.Observer).Observe(d.Seconds())
}
