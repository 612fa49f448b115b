package worker

import (
	"fmt"
	"time"

	"github.com/riverqueue/river"
)

// Jobs is what a worker runs: the job kinds domains register before the
// worker is built. A domain adds its kinds from its own package (the
// retention purges, webhook deliveries) through Add and AddSchedule, so the
// worker package never learns about them.
type Jobs struct {
	workers  *river.Workers
	periodic []*river.PeriodicJob
	kinds    []string
}

// NewJobs returns an empty set.
func NewJobs() *Jobs { return &Jobs{workers: river.NewWorkers()} }

// Kinds lists the registered job kinds in registration order.
func (j *Jobs) Kinds() []string { return append([]string(nil), j.kinds...) }

// Add registers a worker for one-off jobs of T's kind, enqueued with
// Worker.Enqueue (or River's InsertTx from a domain transaction later). A kind
// registered twice is an error.
func Add[T river.JobArgs](j *Jobs, w river.Worker[T]) error {
	var args T
	if err := river.AddWorkerSafely(j.workers, w); err != nil {
		return fmt.Errorf("worker: job kind %q: %w", args.Kind(), err)
	}
	j.kinds = append(j.kinds, args.Kind())
	return nil
}

// AddSchedule enqueues args every interval, and once when a worker becomes
// leader (so a leader replaced more often than the interval still runs it);
// id names the schedule among the periodic jobs, and args' kind must be
// registered with Add. Only the elected leader among the worker replicas
// enqueues periodic jobs, so a job runs once per tick however many replicas
// there are; a kind that must never overlap itself says so in its args'
// InsertOpts (unique while queued or running).
func AddSchedule(j *Jobs, id string, every time.Duration, args river.JobArgs) error {
	if every <= 0 {
		return fmt.Errorf("worker: schedule %q needs a positive interval", id)
	}
	j.periodic = append(j.periodic, river.NewPeriodicJob(
		river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) { return args, nil },
		&river.PeriodicJobOpts{ID: id, RunOnStart: true},
	))
	return nil
}
