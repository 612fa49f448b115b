package idempotency

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Store keeps idempotency keys. Claims, take-overs and releases are short
// statements of their own; Complete runs in the transaction of the write it
// guards (InTx puts one in the context), so the state change and the key's
// answer commit together or not at all.
type Store interface {
	// Claim inserts the key in progress under c.Holder's lease unless it
	// exists, and returns the row as it now stands: c.Holder holds it iff
	// the claim won.
	Claim(ctx context.Context, c Claim) (Record, error)
	// TakeOver gives an in-progress key whose lease ended at or before now
	// to t.Holder (and its request id), until t.LockedUntil; false when it
	// completed or another attempt took it first.
	TakeOver(ctx context.Context, t Claim) (bool, error)
	// InTx runs fn with a transaction in its context (joining one ctx
	// already carries).
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
	// Complete records the answer of holder's attempt; ErrLeaseLost when
	// holder no longer holds the key in progress.
	Complete(ctx context.Context, scope, key, holder string, a Answer, at time.Time) error
	// Release deletes holder's in-progress key, so the request can be sent
	// again with it.
	Release(ctx context.Context, scope, key, holder string) error
	// Purge deletes the keys created before before and returns how many.
	Purge(ctx context.Context, before time.Time) (int, error)
}

// ErrLeaseLost means the attempt's lease ended and another attempt took the
// key over: the attempt's write must not commit.
var ErrLeaseLost = errors.New("idempotency: the key's lease passed to another attempt")

// Claim is an attempt to hold a key: a first use, or a take-over.
type Claim struct {
	Scope, Key, Fingerprint, Method, Holder string
	// RequestID is the attempt's request id, kept with its answer.
	RequestID        string
	Now, LockedUntil time.Time
}

// Record is a key as stored.
type Record struct {
	Scope, Key, Fingerprint, Method, Holder string
	// RequestID is the request id of the attempt that holds the key or
	// completed it.
	RequestID   string
	Completed   bool
	LockedUntil time.Time
	Answer      Answer
}

// Answer is what the guarded call answered: the response message's bytes,
// or an error's catalogued code and message (ErrorCode 0 for success).
type Answer struct {
	Response     []byte
	ErrorCode    int32
	ErrorMessage string
	// ErrorFields are the error body's reason and retryable.
	ErrorFields apierr.Fields
}
