package db

// Queued is how many reads wait for a round trip: tests wait for it
// instead of sleeping.
func (b *ReadBatcher) Queued() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue)
}
