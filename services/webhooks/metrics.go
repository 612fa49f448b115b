package webhooks

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics count what deliveries did, beside the worker's job metrics
// (mp_worker_jobs_total{kind="webhook.deliver"}, the queue depth).
type Metrics struct {
	attempts *prometheus.CounterVec
	disabled *prometheus.CounterVec
}

// NewMetrics registers the delivery metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "mp", Subsystem: "webhook", Name: "delivery_attempts_total",
			Help: "Delivery attempts by result: 2xx, 3xx, 4xx, 5xx (the receiver's class), gone (410), unreachable (no answer: refused address, DNS, timeout, connection).",
		}, []string{"result"}),
		disabled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "mp", Subsystem: "webhook", Name: "subscriptions_disabled_total",
			Help: "Subscriptions the platform disabled, by reason (gone, failing).",
		}, []string{"reason"}),
	}
	reg.MustRegister(m.attempts, m.disabled)
	return m
}

func (m *Metrics) attempt(status int, gone bool) {
	if m == nil {
		return
	}
	result := "unreachable"
	switch {
	case gone:
		result = "gone"
	case status >= 200 && status < 600:
		result = string(rune('0'+status/100)) + "xx"
	}
	m.attempts.WithLabelValues(result).Inc()
}

func (m *Metrics) disable(reason string) {
	if m != nil {
		m.disabled.WithLabelValues(reason).Inc()
	}
}
