package serviceset

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/retention"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/webhooks"
)

// Check refuses a list with a gap: a domain without a name or named twice,
// an event type that declares no readers (the whole catalogue is checked,
// see events.CheckCatalogue), or a type of the catalogue recorded by no
// domain or claimed by two. Core and the worker run it before they build.
func Check(ds []Domain) error {
	errs := []error{events.CheckCatalogue()}
	names := map[string]bool{}
	owner := map[events.Type]string{}
	for _, d := range ds {
		if d.Name == "" || names[d.Name] {
			errs = append(errs, fmt.Errorf("serviceset: domain %q has no name or is declared twice", d.Name))
		}
		names[d.Name] = true
		if err := events.CheckTypes(d.Events); err != nil {
			errs = append(errs, fmt.Errorf("serviceset: domain %s: %w", d.Name, err))
		}
		for _, t := range d.Events {
			if o := owner[t]; o != "" {
				errs = append(errs, fmt.Errorf("serviceset: event type %s is declared by both %s and %s", events.WireName(t), o, d.Name))
			}
			owner[t] = d.Name
		}
	}
	for _, t := range events.Catalogue() {
		if owner[t] == "" {
			errs = append(errs, fmt.Errorf("serviceset: event type %s belongs to no domain: list it in its domain's Events", events.WireName(t)))
		}
	}
	return errors.Join(errs...)
}

// Registrars builds every service of ds over p, for core's server.
func Registrars(p Parts, ds []Domain) []core.Registrar {
	var out []core.Registrar
	for _, d := range ds {
		for _, s := range d.Services {
			out = append(out, s.Core(p))
		}
	}
	return out
}

// Jobs is every job of ds over p, for the worker role and dev's worker
// alike: the retention purge of every domain's tables, then each domain's
// own jobs.
func Jobs(p Parts, ds []Domain) (*worker.Jobs, error) {
	if err := Check(ds); err != nil {
		return nil, err
	}
	jobs := worker.NewJobs()
	var targets []retention.Target
	for _, d := range ds {
		if d.Retention != nil {
			targets = append(targets, d.Retention(p)...)
		}
	}
	if err := retention.Register(jobs, p.Clock, p.Logger.Named(retention.Kind), targets...); err != nil {
		return nil, err
	}
	for _, d := range ds {
		if d.Jobs == nil {
			continue
		}
		if err := d.Jobs(p, jobs); err != nil {
			return nil, fmt.Errorf("serviceset: jobs of %s: %w", d.Name, err)
		}
	}
	return jobs, nil
}

// webhookJobs is the delivery job, on a queue of its own: deliveries mostly
// wait on partners' endpoints and must not hold the default queue's slots.
func webhookJobs(p Parts, jobs *worker.Jobs) error {
	reg := p.Worker.Metrics
	if reg == nil {
		reg = prometheus.NewRegistry() // counted, not exported
	}
	d := webhooks.NewDeliverer(p.Webhooks, webhooks.NewEntStore(p.DB), events.NewEntStore(p.DB), p.Clock).
		WithMetrics(webhooks.NewMetrics(reg))
	if err := worker.Add[webhooks.DeliverArgs](jobs, d); err != nil {
		return err
	}
	n := p.Worker.WebhookConcurrency
	if n == 0 {
		n = webhooks.DefaultConcurrency
	}
	return jobs.AddQueue(webhooks.Queue, n)
}
