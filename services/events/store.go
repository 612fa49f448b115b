package events

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned for an event the seller does not have.
var ErrNotFound = errors.New("events: not found")

// Audience is who reads a seller's events: which addressed events (an
// app's grant events, Event.AppID) are in sight. The zero Audience sees
// none of them.
type Audience struct {
	// AppID sees the events addressed to this app.
	AppID string
	// AnyApp sees every app's (an internal caller).
	AnyApp bool
}

// key tells audiences apart in a cursor's fingerprint.
func (a Audience) key() string {
	if a.AnyApp {
		return "*"
	}
	return "app:" + a.AppID
}

// Filter selects a seller's events.
type Filter struct {
	// Audience leaves out the events addressed to other apps.
	Audience Audience
	// Types matches any of these wire names; empty matches none.
	Types []string
	// CreatedAfter, when set, is inclusive.
	CreatedAfter *time.Time
}

// Store keeps events.
type Store interface {
	// Append writes e with the next sequence of its resource and a fresh
	// position, on the transaction ctx carries; recordedAt is wall time.
	Append(ctx context.Context, e Event, recordedAt time.Time) (Event, error)
	// AppendMany is Append for many events at once (of distinct resources
	// or not, in order), with statements for the whole batch.
	AppendMany(ctx context.Context, es []Event, recordedAt time.Time) error
	// List returns up to limit of the seller's events matching f after
	// position afterPosition (0: from the start), in position order, and
	// whether more follow.
	List(ctx context.Context, sellerID string, f Filter, afterPosition int64, limit int) ([]Event, bool, error)
	// Count counts the seller's events matching f.
	Count(ctx context.Context, sellerID string, f Filter) (int64, error)
	// Get returns one of the seller's events by its public id, when a is
	// in its audience (ErrNotFound otherwise).
	Get(ctx context.Context, sellerID string, a Audience, id string) (Event, error)
	// Purge deletes events recorded before before and returns how many.
	Purge(ctx context.Context, before time.Time) (int, error)
}
