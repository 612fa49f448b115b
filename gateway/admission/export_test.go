package admission

import "github.com/prometheus/client_golang/prometheus"

// Sweep runs one pass of m's janitor.
func Sweep(m *Memory) { m.sweep() }

// Entries returns how many nonces and counters m holds, reclaimed or not.
func Entries(m *Memory) (nonces, counters int) { return m.entries() }

// Commands is the commands_total series of command and outcome.
func (m *RedisMetrics) Commands(command, outcome string) prometheus.Counter {
	return m.commands.WithLabelValues(command, outcome)
}

// Connects is the connects_total series of outcome.
func (m *RedisMetrics) Connects(outcome string) prometheus.Counter {
	return m.connects.WithLabelValues(outcome)
}
