package admission

// Sweep runs one pass of m's janitor.
func Sweep(m *Memory) { m.sweep() }

// Entries returns how many nonces and counters m holds, reclaimed or not.
func Entries(m *Memory) (nonces, counters int) { return m.entries() }
