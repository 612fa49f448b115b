package gateway

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	"go.uber.org/zap"
	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/telemetry"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// Metrics are the gateway's request counters and latencies.
type Metrics struct {
	duration   *prometheus.HistogramVec
	requests   *prometheus.CounterVec
	rejections *prometheus.CounterVec
	// series caches the children of one outcome, so that a request
	// resolves its labels with one map lookup and allocates nothing.
	series sync.Map // outcome → *outcomeSeries
}

// outcome is what a request's metrics are labelled with.
type outcome struct {
	route, method string
	status        int
	code          apierr.Code // zero: answered without an error
	bucket        string      // the rate bucket that refused it
}

type outcomeSeries struct {
	duration prometheus.Observer
	requests prometheus.Counter
	rejected prometheus.Counter // nil: not a rejection
}

// NewMetrics registers the gateway's metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "mp",
			Subsystem: "gateway",
			Name:      "request_duration_seconds",
			Help:      "Duration of /open/v1 requests by route template, method and status.",
			Buckets:   []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route", "method", "status"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "mp",
			Subsystem: "gateway",
			Name:      "requests_total",
			Help:      "/open/v1 requests by route template, method, status and error code (empty for a success).",
		}, []string{"route", "method", "status", "code"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "mp",
			Subsystem: "gateway",
			Name:      "rejections_total",
			Help:      "Requests refused by the gateway's own checks, by reason (signature, timestamp, replay, credentials, rate_limit, body_size) and, for rate_limit, the bucket (ip, app, account, sandbox, sign_in).",
		}, []string{"reason", "bucket"}),
	}
	reg.MustRegister(m.duration, m.requests, m.rejections)
	return m
}

// rejectionReason groups the codes of the gateway's admission checks; ""
// for every other outcome (core's answers, routing, validation).
func rejectionReason(code apierr.Code) string {
	switch code {
	case apierr.InvalidSignature, apierr.HMACVersionDeprecated, apierr.MissingNonce, apierr.InvalidNonce:
		return "signature"
	case apierr.TimestampExpired:
		return "timestamp"
	case apierr.NonceReused:
		return "replay"
	case apierr.InvalidCredentials:
		return "credentials"
	case apierr.RateLimited:
		return "rate_limit"
	case apierr.PayloadTooLarge:
		return "body_size"
	}
	return ""
}

func (m *Metrics) seriesOf(o outcome) *outcomeSeries {
	if s, ok := m.series.Load(o); ok {
		return s.(*outcomeSeries)
	}
	status := strconv.Itoa(o.status)
	code := ""
	if o.code != 0 {
		code = apierr.Name(o.code)
	}
	s := &outcomeSeries{
		duration: m.duration.WithLabelValues(o.route, o.method, status),
		requests: m.requests.WithLabelValues(o.route, o.method, status, code),
	}
	if reason := rejectionReason(o.code); reason != "" {
		s.rejected = m.rejections.WithLabelValues(reason, o.bucket)
	}
	actual, _ := m.series.LoadOrStore(o, s)
	return actual.(*outcomeSeries)
}

// exceededBucket names the first bucket a refused request went past.
func exceededBucket(res admission.Result) string {
	for i, b := range res.Buckets {
		if b.Exceeded {
			return bucketName(i)
		}
	}
	return ""
}

// observe records a finished request: its metrics, its access log line and
// the attributes of its span.
func (g *Gateway) observe(r *http.Request, route string, sw *statusWriter, rid string, d time.Duration) {
	code := sw.status()
	clientID := sw.clientID
	if clientID == "" {
		// Refused before the signature was verified: the id it claimed,
		// when it has the form of one (it is the first thing support asks
		// for about a refused request).
		if claimed := r.Header.Get(signing.HeaderPartnerID); tokenChars(claimed, 128) {
			clientID = claimed
		}
	}
	if m := g.cfg.Metrics; m != nil {
		s := m.seriesOf(outcome{route: route, method: r.Method, status: code, code: sw.errCode, bucket: sw.bucket})
		s.duration.Observe(d.Seconds())
		s.requests.Inc()
		if s.rejected != nil {
			s.rejected.Inc()
		}
	}
	errCode := ""
	if sw.errCode != 0 {
		errCode = apierr.Name(sw.errCode)
	}
	if span, ok := telemetry.Recording(r.Context()); ok {
		span.SetAttributes(attribute.String("http.route", route), telemetry.AttrClientID.String(clientID))
		if errCode != "" {
			span.SetAttributes(telemetry.AttrErrorCode.String(errCode))
		}
	}
	if ce := g.log.Check(zap.InfoLevel, "request"); ce != nil {
		ce.Write(
			zap.String("request_id", rid),
			zap.String("method", r.Method),
			zap.String("route", route),
			zap.Int("status", code),
			zap.String("client_id", clientID),
			zap.String("error_code", errCode),
			zap.Duration("duration", d),
		)
	}
}

func statusOf(err error) *status.Status { return status.Convert(err) }
