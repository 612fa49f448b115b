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
	// schedules are the periodic jobs' ids, in registration order.
	schedules []string
	kinds     []string
	// queues are the queues besides the default one, with how many of
	// their jobs run at once in each process.
	queues map[string]int
}

// AddQueue declares a queue of its own for the jobs whose InsertOpts name
// it, with maxWorkers of them at once per process: jobs that mostly wait
// on the network (webhook deliveries) need far more at once than the
// default queue's, and must not hold its slots.
func (j *Jobs) AddQueue(name string, maxWorkers int) error {
	if name == "" || name == river.QueueDefault || maxWorkers < 1 {
		return fmt.Errorf("worker: queue %q needs a name of its own and at least one worker", name)
	}
	if j.queues == nil {
		j.queues = map[string]int{}
	}
	j.queues[name] = maxWorkers
	return nil
}

// NewJobs returns an empty set.
func NewJobs() *Jobs { return &Jobs{workers: river.NewWorkers()} }

// Kinds lists the registered job kinds in registration order.
func (j *Jobs) Kinds() []string { return append([]string(nil), j.kinds...) }

// Schedules lists the ids of the periodic jobs in registration order.
func (j *Jobs) Schedules() []string { return append([]string(nil), j.schedules...) }

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
	j.schedules = append(j.schedules, id)
	j.periodic = append(j.periodic, river.NewPeriodicJob(
		river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) { return args, nil },
		&river.PeriodicJobOpts{ID: id, RunOnStart: true},
	))
	return nil
}
