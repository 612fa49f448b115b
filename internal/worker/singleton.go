package worker

import (
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// OneAtATime is the insert options of a periodic job of which at most one
// run with the same arguments may be queued or running: ticks piling up
// behind a slow or stopped worker do not queue duplicate runs. A run is
// tried maxAttempts times, then waits for the next tick.
func OneAtATime(maxAttempts int) river.InsertOpts {
	return river.InsertOpts{MaxAttempts: maxAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateScheduled, rivertype.JobStateRetryable,
	}}}
}
