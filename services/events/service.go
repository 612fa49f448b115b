package events

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// Service is the events feed.
type Service struct {
	store   Store
	cursors *pagination.Cursors
}

// NewService returns the feed over store; cursors sign its listing cursors
// (nil: a random key, for a single process).
func NewService(store Store, cursors *pagination.Cursors) *Service {
	if cursors == nil {
		cursors = pagination.RandomCursors()
	}
	return &Service{store: store, cursors: cursors}
}

// ListParams is a feed request after transport decoding and validation.
type ListParams struct {
	Limit        int32
	Cursor       string
	Type         *Type
	CreatedAfter *time.Time
}

// audience is who reads: a partner app its own addressed events beside
// the unaddressed ones, an internal caller every event.
func audience(ctx context.Context) Audience {
	if p, isPartner := principal.FromContext(ctx); isPartner {
		return Audience{AppID: p.AppID}
	}
	return Audience{AnyApp: true}
}

// readable is the wire names of the types the call may read: those whose
// scope the partner app holds (for this seller), every type for an internal
// caller.
func readable(ctx context.Context) []string {
	p, isPartner := principal.FromContext(ctx)
	var out []string
	for _, t := range catalogue {
		if !isPartner || MayRead(p, t) {
			out = append(out, WireName(t))
		}
	}
	return out
}

func forbidden(t Type) error {
	if scope := ReadScope(t); scope != "" {
		return apierr.Newf(apierr.Forbidden, "reading %s events needs the scope %s", WireName(t), scope)
	}
	return apierr.Newf(apierr.Forbidden, "%s events are not readable", WireName(t))
}

// List returns a page of the seller's events, oldest first.
func (s *Service) List(ctx context.Context, p ListParams) (pagination.Page[Event], error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return pagination.Page[Event]{}, err
	}
	types := readable(ctx)
	if p.Type != nil {
		name := WireName(*p.Type)
		if !slices.Contains(types, name) {
			return pagination.Page[Event]{}, forbidden(*p.Type)
		}
		types = []string{name}
	}
	if len(types) == 0 {
		return pagination.Page[Event]{}, apierr.Newf(apierr.Forbidden, "reading events needs the scope %s", strings.Join(sortedScopes(), " or "))
	}
	f := Filter{Types: types, CreatedAfter: p.CreatedAfter, Audience: audience(ctx)}
	after := ""
	if p.CreatedAfter != nil {
		after = p.CreatedAfter.UTC().Format(time.RFC3339Nano)
	}
	fp := pagination.Fingerprint("events", seller, f.Audience.key(), strings.Join(types, ","), after)
	w, err := pagination.Resolve[pagination.NumKey](s.cursors, pagination.Request{Limit: p.Limit, Cursor: p.Cursor}, fp)
	if err != nil {
		return pagination.Page[Event]{}, err
	}
	var afterPos int64
	if w.After != nil {
		afterPos = w.After.N
	}
	var rows []Event
	var more bool
	total, err := pagination.PageAndCount(
		func() (int64, error) { return s.store.Count(ctx, seller, f) },
		func() (err error) { rows, more, err = s.store.List(ctx, seller, f, afterPos, w.Limit); return err })
	if err != nil {
		return pagination.Page[Event]{}, err
	}
	return pagination.NewPage(w, rows, more, total, func(e Event) pagination.NumKey {
		return pagination.NumKey{N: e.Position, ID: e.ID}
	}), nil
}

// Get returns one of the seller's events.
func (s *Service) Get(ctx context.Context, id string) (Event, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return Event{}, err
	}
	// Another app's addressed event is as missing as another seller's.
	e, err := s.store.Get(ctx, seller, audience(ctx), id)
	if errors.Is(err, ErrNotFound) {
		return Event{}, apierr.New(apierr.NotFound, "event not found")
	}
	if err != nil {
		return Event{}, err
	}
	if t, ok := ParseType(e.Type); ok && !slices.Contains(readable(ctx), e.Type) {
		return Event{}, forbidden(t)
	}
	return e, nil
}

// sortedScopes is every declared read scope, once each.
func sortedScopes() []string {
	var out []string
	for _, d := range declarations {
		if d.scope != "" && !slices.Contains(out, d.scope) {
			out = append(out, d.scope)
		}
	}
	sort.Strings(out)
	return out
}
