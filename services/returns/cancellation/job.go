package cancellation

import (
	"github.com/riverqueue/river"

	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/worker"
)

// DeadlineKind is the requests' deadline sweep in River's tables and the
// worker's metrics.
const DeadlineKind = "cancellation_requests.deadlines"

// DeadlineArgs is one sweep of the requests' deadlines; sweeps carry
// nothing, and at most one is queued or running.
type DeadlineArgs struct{}

// Kind implements river.JobArgs.
func (DeadlineArgs) Kind() string { return DeadlineKind }

// InsertOpts implements river.JobArgsWithInsertOpts.
func (DeadlineArgs) InsertOpts() river.InsertOpts { return worker.OneAtATime(3) }

// RegisterDeadlines adds the requests' deadline sweep to jobs, every
// deadline.Every.
func RegisterDeadlines(jobs *worker.Jobs, subject *deadline.Subject[*Request], cfg deadline.JobConfig) error {
	return deadline.Register(jobs, DeadlineArgs{}, 0, subject, cfg)
}
