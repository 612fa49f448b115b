package db

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ReadBatcher sends concurrent single-row reads of one statement to
// PostgreSQL together, as one pipelined round trip, when they arrive while
// the batcher's earlier round trips are still out; a read that finds one free
// goes at once, alone, exactly as a plain QueryRow. Under load, PostgreSQL
// then reads k executions from one socket read and answers them with one
// write, and the caller's process reads them back once: the per-statement
// wake-ups and system calls, not the statement's execution, are most of
// what a short indexed read costs both processes (docs/performance.md,
// "Core's order reads in one round trip"). Results are the statement's
// own, one per read, in the order queued.
//
// Only reads outside a transaction belong here: a batch runs on a pool
// connection of its own.
type ReadBatcher struct {
	pool *pgxpool.Pool
	// cfg is the configuration, its defaults filled in.
	cfg ReadBatcherConfig

	mu sync.Mutex
	// queue holds the reads waiting for a round trip. It is empty unless
	// cfg.MaxInFlight round trips are out: whoever ends one takes it next.
	queue    []*batchedRead
	inFlight int

	// roundTrips and reads count what went to PostgreSQL (Stats).
	roundTrips, reads atomic.Int64
}

// ReadBatcherStats are a batcher's counts since it was made.
type ReadBatcherStats struct {
	// RoundTrips is how many round trips went out, Reads how many reads
	// they carried: Reads / RoundTrips is the mean batch.
	RoundTrips, Reads int64
}

// Stats returns the batcher's counts.
func (b *ReadBatcher) Stats() ReadBatcherStats {
	return ReadBatcherStats{RoundTrips: b.roundTrips.Load(), Reads: b.reads.Load()}
}

// ReadBatcherConfig configures a ReadBatcher.
type ReadBatcherConfig struct {
	// Name names the statement in metrics (mp_db_read_batch_*{statement}).
	Name string
	// SQL is the statement; each read gives its arguments.
	SQL string
	// MaxBatch caps the reads of one round trip (default 16).
	MaxBatch int
	// MaxInFlight caps the batcher's round trips out at once (default 1):
	// reads arriving while they are out wait and go together in the next.
	MaxInFlight int
	// Timeout is a round trip's deadline from when it is sent, and the
	// longest it waits for the latest deadline of its reads.
	Timeout time.Duration
}

// Validate reports what is missing or out of range.
func (c ReadBatcherConfig) Validate() error {
	var errs []error
	if strings.TrimSpace(c.Name) == "" {
		errs = append(errs, errors.New("db: read batcher: Name is required"))
	}
	if strings.TrimSpace(c.SQL) == "" {
		errs = append(errs, errors.New("db: read batcher: SQL is required"))
	}
	if c.MaxBatch < 0 || c.MaxInFlight < 0 {
		errs = append(errs, fmt.Errorf("db: read batcher: MaxBatch (%d) and MaxInFlight (%d) must be >= 0", c.MaxBatch, c.MaxInFlight))
	}
	if c.Timeout <= 0 {
		errs = append(errs, fmt.Errorf("db: read batcher: Timeout must be > 0, got %s", c.Timeout))
	}
	return errors.Join(errs...)
}

// withDefaults is c with its zero limits set to their defaults.
func (c ReadBatcherConfig) withDefaults() ReadBatcherConfig {
	if c.MaxBatch == 0 {
		c.MaxBatch = 16
	}
	if c.MaxInFlight == 0 {
		c.MaxInFlight = 1
	}
	return c
}

// batchedRead is one QueryRow waiting for its round trip.
type batchedRead struct {
	ctx  context.Context
	args []any
	dest []any
	// done receives the read's result, once; it is buffered so that the
	// round trip never waits for a reader that has gone.
	done chan error
}

// QueryRow runs the statement with args and scans its row into dest, as
// pgx.Row.Scan does (pgx.ErrNoRows when there is no row). The scan may run
// on the goroutine that reads a whole batch's results, which every later
// read of the batch waits for: dest only take the row's values there, and
// decoding them belongs to the caller, after QueryRow returns. A read whose
// context ends while it waits returns the context's error at once; its
// round trip goes on for the others, and may still fill dest.
func (b *ReadBatcher) QueryRow(ctx context.Context, args []any, dest ...any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	if b.inFlight < b.cfg.MaxInFlight {
		// A round trip is free (and so nothing is queued): this read goes
		// now, on the caller's goroutine and context, as a plain QueryRow.
		b.inFlight++
		b.mu.Unlock()
		b.roundTrips.Add(1)
		b.reads.Add(1)
		defer b.next() // even if a destination's scanner panics
		return b.pool.QueryRow(ctx, b.cfg.SQL, args...).Scan(dest...)
	}
	r := &batchedRead{ctx: ctx, args: args, dest: dest, done: make(chan error, 1)}
	b.queue = append(b.queue, r)
	b.mu.Unlock()
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// next ends a round trip: the reads queued meanwhile go in the next one, on
// a goroutine of their own so that the round trip's own caller returns now.
func (b *ReadBatcher) next() {
	if batch := b.take(); batch != nil {
		go b.drain(batch)
	}
}

// take returns the next batch, or releases the round trip when nothing is
// queued.
func (b *ReadBatcher) take() []*batchedRead {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.inFlight--
		return nil
	}
	n := min(len(b.queue), b.cfg.MaxBatch)
	batch := make([]*batchedRead, n)
	copy(batch, b.queue)
	rest := copy(b.queue, b.queue[n:])
	clear(b.queue[rest:])
	b.queue = b.queue[:rest]
	return batch
}

// drain sends batches until nothing is queued.
func (b *ReadBatcher) drain(batch []*batchedRead) {
	for ; batch != nil; batch = b.take() {
		b.send(batch)
	}
}

// send runs one batch as one pipelined round trip and hands each read its
// row. Reads whose context has ended are left out.
func (b *ReadBatcher) send(batch []*batchedRead) {
	live := batch[:0]
	for _, r := range batch {
		if err := r.ctx.Err(); err != nil {
			r.done <- err
			continue
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return
	}
	ctx, cancel := b.batchContext(live)
	defer cancel()
	b.roundTrips.Add(1)
	b.reads.Add(int64(len(live)))
	var pb pgx.Batch
	for _, r := range live {
		pb.Queue(b.cfg.SQL, r.args...)
	}
	results := b.pool.SendBatch(ctx, &pb)
	for _, r := range live {
		r.done <- results.QueryRow().Scan(r.dest...)
	}
	// Every read has its row or its error; Close's error is one of theirs.
	_ = results.Close()
}

// batchContext is a round trip's context: the values of its first read's
// (a trace then shows the round trip under that read) and the latest
// deadline of its reads, at most Timeout from now; the round trip is not
// cancelled when one reader goes.
func (b *ReadBatcher) batchContext(batch []*batchedRead) (context.Context, context.CancelFunc) {
	limit := time.Now().Add(b.cfg.Timeout)
	var latest time.Time
	for _, r := range batch {
		d, ok := r.ctx.Deadline()
		if !ok || d.After(limit) {
			latest = limit
			break
		}
		if d.After(latest) {
			latest = d
		}
	}
	return context.WithDeadline(context.WithoutCancel(batch[0].ctx), latest)
}

// ReadBatcher returns d's batcher for cfg's statement, made on d's pool on
// first use and shared by every store on d from then on, so that all the
// reads of one statement batch together and its metrics count them all. It
// returns nil on SQLite, which has no pool to pipeline on. Asking again for
// a name with another configuration is an error.
func (d *DB) ReadBatcher(cfg ReadBatcherConfig) (*ReadBatcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if d.Pool == nil {
		return nil, nil
	}
	cfg = cfg.withDefaults()
	d.batchersMu.Lock()
	defer d.batchersMu.Unlock()
	if b, ok := d.batchers[cfg.Name]; ok {
		if b.cfg != cfg {
			return nil, fmt.Errorf("db: read batcher %q is already configured otherwise", cfg.Name)
		}
		return b, nil
	}
	b := &ReadBatcher{pool: d.Pool, cfg: cfg}
	if d.batchers == nil {
		d.batchers = make(map[string]*ReadBatcher)
	}
	d.batchers[cfg.Name] = b
	return b, nil
}
