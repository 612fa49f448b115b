package gateway

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
	"google.golang.org/grpc/status"
)

// Metrics are the gateway's request counters and latencies.
type Metrics struct {
	requests *prometheus.HistogramVec
}

// NewMetrics registers the gateway's metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "mp",
		Subsystem: "gateway",
		Name:      "request_duration_seconds",
		Help:      "Duration of /open/v1 requests by route template, method and status.",
		Buckets:   []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"route", "method", "status"})}
	reg.MustRegister(m.requests)
	return m
}

func (g *Gateway) observe(r *http.Request, route string, code int, rid string, d time.Duration) {
	if g.cfg.Metrics != nil {
		g.cfg.Metrics.requests.WithLabelValues(route, r.Method, strconv.Itoa(code)).Observe(d.Seconds())
	}
	if ce := g.log.Check(zap.InfoLevel, "request"); ce != nil {
		ce.Write(
			zap.String("request_id", rid),
			zap.String("method", r.Method),
			zap.String("route", route),
			zap.Int("status", code),
			zap.Duration("duration", d),
		)
	}
}

func statusOf(err error) *status.Status { return status.Convert(err) }
