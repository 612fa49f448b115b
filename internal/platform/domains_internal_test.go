package platform

import (
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/serviceset"
	"github.com/mallplatform/partnerapi/internal/worker"
	"github.com/mallplatform/partnerapi/internal/worker/retention"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/events"
)

const testGatewayToken = "domains-test-gateway-token-0123456789"

// Core and the worker built from the list serve, run and purge what every
// domain declares: each domain's gRPC services are on core, its job kinds
// and schedules in the worker's jobs, its retention targets purged on a
// schedule of their own, and every event type of the catalogue belongs to
// one of them. There is no second list to forget a domain in.
func TestEveryDomainIsBuiltFromTheList(t *testing.T) {
	d := dbtest.SQLite(t)
	// The automatic review is a catalog job only when a delay is set.
	parts, err := NewParts(PartsConfig{DB: d, SecretKey: auth.NewKey(), Worker: serviceset.WorkerSettings{SandboxReviewDelay: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCore(CoreConfig{DB: d, GatewayToken: testGatewayToken, Parts: &parts})
	if err != nil {
		t.Fatal(err)
	}
	served := c.Server.GRPC.GetServiceInfo()
	jobs, err := WorkerJobs(parts)
	if err != nil {
		t.Fatal(err)
	}
	owned := map[events.Type]string{}
	for _, dom := range serviceset.Domains() {
		for _, svc := range dom.Services {
			alone := grpc.NewServer()
			svc.Core(parts)(alone)
			for name := range alone.GetServiceInfo() {
				if _, ok := served[name]; !ok {
					t.Errorf("domain %s: core does not serve %s", dom.Name, name)
				}
			}
		}
		if dom.Retention != nil {
			for _, target := range dom.Retention(parts) {
				if !slices.Contains(jobs.Schedules(), retention.Kind+":"+target.Name) {
					t.Errorf("domain %s: the worker does not purge %s", dom.Name, target.Name)
				}
			}
		}
		if dom.Jobs != nil {
			alone := worker.NewJobs()
			if err := dom.Jobs(parts, alone); err != nil {
				t.Fatal(err)
			}
			for _, kind := range alone.Kinds() {
				if !slices.Contains(jobs.Kinds(), kind) {
					t.Errorf("domain %s: the worker does not run %s", dom.Name, kind)
				}
			}
			for _, id := range alone.Schedules() {
				if !slices.Contains(jobs.Schedules(), id) {
					t.Errorf("domain %s: the worker does not schedule %s", dom.Name, id)
				}
			}
		}
		for _, typ := range dom.Events {
			owned[typ] = dom.Name
		}
	}
	for _, typ := range events.Catalogue() {
		if owned[typ] == "" {
			t.Errorf("event type %s belongs to no domain", events.WireName(typ))
		}
	}
}

// Core refuses to start on an event type that declares no readers, naming
// it, rather than serve its events to every app of the seller; and on a
// type of the catalogue that no domain records.
func TestCoreRefusesAGapInTheDomains(t *testing.T) {
	cfg := CoreConfig{DB: dbtest.SQLite(t), GatewayToken: testGatewayToken, SecretKey: auth.NewKey()}
	undeclared := append(serviceset.Domains(), serviceset.Domain{Name: "shipping", Events: []events.Type{events.Type(9999)}})
	if _, err := newCore(cfg, undeclared); err == nil || !strings.Contains(err.Error(), "shipping") || !strings.Contains(err.Error(), "9999") {
		t.Errorf("core with an undeclared event type: %v", err)
	}
	var orphaned []serviceset.Domain
	for _, dom := range serviceset.Domains() {
		dom.Events = slices.DeleteFunc(slices.Clone(dom.Events), func(typ events.Type) bool {
			return typ == eventsv1.EventType_EVENT_TYPE_ORDER_PAID
		})
		orphaned = append(orphaned, dom)
	}
	if _, err := newCore(cfg, orphaned); err == nil || !strings.Contains(err.Error(), "order.paid belongs to no domain") {
		t.Errorf("core with an event type no domain records: %v", err)
	}
	if _, err := serviceset.Jobs(serviceset.Parts{}, undeclared); err == nil {
		t.Error("the worker's jobs were built with an undeclared event type")
	}
}
