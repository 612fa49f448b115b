package catalog

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// parallelChunk is how many items a worker takes at a time: large enough
// that taking them costs nothing next to checking them, small enough that
// the workers finish together.
const parallelChunk = 64

// eachInParallel runs fn for every index in [0, n) on up to GOMAXPROCS
// goroutines. fn writes its result at its own index, so the results keep
// the submission order whatever the schedule. The first error stops the
// others and is returned.
func eachInParallel(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), (n+parallelChunk-1)/parallelChunk)
	if workers <= 1 {
		for i := range n {
			if err := fn(ctx, i); err != nil {
				return err
			}
		}
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	for range workers {
		g.Go(func() error {
			for {
				start := int(next.Add(parallelChunk)) - parallelChunk
				if start >= n {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				for i := start; i < min(start+parallelChunk, n); i++ {
					if err := fn(gctx, i); err != nil {
						return err
					}
				}
			}
		})
	}
	return g.Wait()
}
