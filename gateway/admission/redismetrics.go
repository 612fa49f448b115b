package admission

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// RedisMetrics are the Redis store's client statistics: commands by outcome
// and their latency, and connection attempts.
type RedisMetrics struct {
	commands *prometheus.CounterVec
	duration *prometheus.HistogramVec
	connects *prometheus.CounterVec
	// The children the store uses, resolved once.
	admit, ping commandSeries
	connectOK   prometheus.Counter
	connectErr  prometheus.Counter
}

type commandSeries struct {
	ok, failed, timeout, unavailable prometheus.Counter
	duration                         prometheus.Observer
}

// NewRedisMetrics registers the Redis client's metrics on reg.
func NewRedisMetrics(reg prometheus.Registerer) *RedisMetrics {
	m := &RedisMetrics{
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "mp", Subsystem: "gateway_redis", Name: "commands_total",
			Help: "Calls of the gateway's Redis store by command (admit: the nonce and rate script; ping: readiness) and outcome: ok, error (Redis answered an error or the connection broke), timeout (the call's deadline passed), unavailable (no connection could be had).",
		}, []string{"command", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "mp", Subsystem: "gateway_redis", Name: "command_duration_seconds",
			Help:    "Latency of the Redis store's commands that reached a connection, by command.",
			Buckets: []float64{.0002, .0005, .001, .0025, .005, .01, .025, .05, .1, .3, 1},
		}, []string{"command"}),
		connects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "mp", Subsystem: "gateway_redis", Name: "connects_total",
			Help: "Attempts of the Redis store to connect, by outcome (ok, error).",
		}, []string{"outcome"}),
	}
	reg.MustRegister(m.commands, m.duration, m.connects)
	series := func(cmd string) commandSeries {
		return commandSeries{
			ok: m.commands.WithLabelValues(cmd, "ok"), failed: m.commands.WithLabelValues(cmd, "error"),
			timeout: m.commands.WithLabelValues(cmd, "timeout"), unavailable: m.commands.WithLabelValues(cmd, "unavailable"),
			duration: m.duration.WithLabelValues(cmd),
		}
	}
	m.admit, m.ping = series("admit"), series("ping")
	m.connectOK, m.connectErr = m.connects.WithLabelValues("ok"), m.connects.WithLabelValues("error")
	return m
}

// done records a command that reached a connection at start.
func (c *commandSeries) done(ctx context.Context, start time.Time, err error) {
	c.duration.Observe(time.Since(start).Seconds())
	switch {
	case err == nil:
		c.ok.Inc()
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		c.timeout.Inc()
	default:
		c.failed.Inc()
	}
}

// series returns the command's series, nil without metrics.
func (m *RedisMetrics) series(ping bool) *commandSeries {
	switch {
	case m == nil:
		return nil
	case ping:
		return &m.ping
	}
	return &m.admit
}

func (m *RedisMetrics) connected(err error) {
	if m == nil {
		return
	}
	if err != nil {
		m.connectErr.Inc()
		return
	}
	m.connectOK.Inc()
}
