// Package events is the platform's outbox and its feed. Every state change of
// a seller's resource records an event in the change's own transaction
// (Recorder.Record joins the transaction the context carries), so that a
// change and its event commit together or not at all; the feed
// (GET /open/v1/events) reads them back for 30 days and the webhook
// deliveries send them.
package events

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// Retention is how long events are kept; the worker purges older ones.
const Retention = 30 * 24 * time.Hour

// Type is an event type of the catalogue: an eventsv1.EventType value, whose
// wire name ("order.cancelled") is what is stored and sent.
type Type = eventsv1.EventType

// Event is one recorded state change.
type Event struct {
	// Position orders the feed (assigned by the database).
	Position int64
	ID       string
	SellerID string
	// AppID is set on an event addressed to one app alone (a seller's grant
	// to it): no other app reads or receives it.
	AppID      string
	Type       string
	ResourceID string
	Sequence   int64
	// Data is the resource's wire JSON at that moment.
	Data      []byte
	CreatedAt time.Time
}

// typeDesc describes the catalogue.
var typeDesc = eventsv1.EventType(0).Descriptor()

// WireName is t's name on the wire ("" for a value outside the catalogue).
func WireName(t Type) string {
	return wirejson.EnumWireName(typeDesc, protoreflect.EnumNumber(t))
}

// ParseType reads a wire name.
func ParseType(s string) (Type, bool) {
	n, ok := wirejson.ParseEnum(typeDesc, s)
	return Type(n), ok
}

// Catalogue lists every event type, in the catalogue's order.
func Catalogue() []Type { return slices.Clone(catalogue) }

// catalogue is read from the enum once.
var catalogue = func() []Type {
	values := typeDesc.Values()
	out := make([]Type, 0, values.Len())
	for i := 0; i < values.Len(); i++ {
		if t := Type(values.Get(i).Number()); WireName(t) != "" {
			out = append(out, t)
		}
	}
	return out
}()

// errNoRecorder refuses a change of a service built without a Recorder: no
// change commits without its event.
var errNoRecorder = errors.New("events: writes need an event recorder")

// Recorder writes events in the transaction of the change they record; a
// nil Recorder refuses to record.
type Recorder struct {
	store    Store
	wall     clock.Clock
	dispatch Dispatcher
}

// Dispatcher hands recorded events on (the webhook deliveries), in the same
// transaction.
type Dispatcher interface {
	Dispatch(ctx context.Context, es []Event) error
}

// WithDispatcher returns a Recorder that also hands each recorded event to d
// in the recording transaction.
func (r *Recorder) WithDispatcher(d Dispatcher) *Recorder {
	c := *r
	c.dispatch = d
	return &c
}

// NewRecorder returns a Recorder over store; wall dates the writes for
// retention (nil: the system clock).
func NewRecorder(store Store, wall clock.Clock) *Recorder {
	if wall == nil {
		wall = clock.System{}
	}
	return &Recorder{store: store, wall: wall}
}

// Change is one state change to record.
type Change struct {
	SellerID string
	// AppID addresses the event to one app alone: required for the types
	// declared addressed to an app (authorization.*, see Addressed),
	// refused on the others.
	AppID      string
	Type       Type
	ResourceID string
	// At is the business time of the change.
	At time.Time
	// View is the resource's partner-safe view after the change, rendered
	// as its GET renders it.
	View proto.Message
}

// Record writes c's event on the transaction ctx carries (or in a statement
// of its own without one) and returns it.
func (r *Recorder) Record(ctx context.Context, c Change) (Event, error) {
	if r == nil {
		return Event{}, errNoRecorder
	}
	e, err := newEvent(c)
	if err != nil {
		return Event{}, err
	}
	if e, err = r.store.Append(ctx, e, r.wall.Now()); err != nil {
		return Event{}, err
	}
	if r.dispatch != nil {
		if err := r.dispatch.Dispatch(ctx, []Event{e}); err != nil {
			return Event{}, err
		}
	}
	return e, nil
}

// RecordMany is Record for many changes, written together.
func (r *Recorder) RecordMany(ctx context.Context, cs []Change) error {
	es := make([]Event, len(cs))
	for i, c := range cs {
		e, err := Prepare(c)
		if err != nil {
			return err
		}
		es[i] = e
	}
	return r.RecordPrepared(ctx, es)
}

// Prepare checks c and renders its event without writing it, so that a
// large batch can render its views before its transaction opens (the
// transaction then holds its locks for the writes alone). RecordPrepared
// writes the result.
func Prepare(c Change) (Event, error) { return newEvent(c) }

// RecordPrepared is RecordMany for events made by Prepare.
func (r *Recorder) RecordPrepared(ctx context.Context, es []Event) error {
	if r == nil {
		return errNoRecorder
	}
	if err := r.store.AppendMany(ctx, es, r.wall.Now()); err != nil {
		return err
	}
	if r.dispatch != nil {
		return r.dispatch.Dispatch(ctx, es)
	}
	return nil
}

func newEvent(c Change) (Event, error) {
	name := WireName(c.Type)
	if name == "" {
		return Event{}, fmt.Errorf("events: %v is not in the catalogue", c.Type)
	}
	if c.SellerID == "" || c.ResourceID == "" {
		return Event{}, errors.New("events: an event needs its seller and resource")
	}
	switch {
	case !Addressed(c.Type) && ReadScope(c.Type) == "":
		// Nobody may read it (CheckCatalogue stops core first): recording
		// it would only fill the outbox.
		return Event{}, fmt.Errorf("events: %s declares no read scope and no addressee", name)
	case Addressed(c.Type) && c.AppID == "":
		// Unaddressed, it would reach every app the seller granted.
		return Event{}, fmt.Errorf("events: a %s event is addressed to one app and needs it", name)
	case !Addressed(c.Type) && c.AppID != "":
		// Every app granted the type's scope reads it: the store counts
		// such events without looking at their app.
		return Event{}, fmt.Errorf("events: a %s event concerns every app the seller granted, not one", name)
	}
	data, err := wirejson.Marshal(c.View)
	if err != nil {
		return Event{}, fmt.Errorf("events: render %s: %w", name, err)
	}
	return Event{ID: ids.NewAt("evt", c.At), SellerID: c.SellerID, AppID: c.AppID, Type: name, ResourceID: c.ResourceID,
		Data: data, CreatedAt: c.At}, nil
}
