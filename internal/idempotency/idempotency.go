// Package idempotency makes a write safe to retry: the first request with an
// Idempotency-Key runs once, and every repeat within 24 hours gets its answer
// back instead of running again. Core applies it to every method whose policy
// declares (mp.options.v1.policy).idempotency; the rules are in
// docs/decisions.md, "Idempotency".
package idempotency

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
)

const (
	// MaxKeyLen is the longest key accepted.
	MaxKeyLen = 255
	// DefaultLease is how long an attempt holds a key in progress before a
	// retry may take it over. It exceeds core's call deadline (10 s), so a
	// live attempt is never overtaken; a holder that died frees its keys
	// after it.
	DefaultLease = 60 * time.Second
	// Retention is how long keys are kept; the worker's retention purge
	// deletes older ones (EntStore.Purge).
	Retention = 24 * time.Hour
)

// The spec's idempotency codes.
const (
	codeRequired   = errorsv1.ErrorCode_ERROR_CODE_IDEMPOTENCY_KEY_REQUIRED
	codeReused     = errorsv1.ErrorCode_ERROR_CODE_IDEMPOTENCY_KEY_REUSED
	codeInProgress = errorsv1.ErrorCode_ERROR_CODE_IDEMPOTENCY_KEY_IN_PROGRESS
)

// ErrRequired is the answer to a call without a key to a method that
// requires one.
func ErrRequired() error {
	return apierr.New(codeRequired, "this endpoint requires an Idempotency-Key header")
}

// ErrInvalidKey is the answer to a key of the wrong form.
func ErrInvalidKey() error {
	return apierr.Newf(apierr.ValidationError, "Idempotency-Key: must be 1 to %d printable ASCII characters", MaxKeyLen)
}

// ValidKey reports whether k is 1 to 255 printable ASCII characters.
func ValidKey(k string) bool {
	if k == "" || len(k) > MaxKeyLen {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// HTTPFingerprint is the fingerprint of a partner request: its method,
// path, canonical query and exact body bytes (hex SHA-256).
func HTTPFingerprint(method, path, canonicalQuery string, body []byte) string {
	h := sha256.New()
	h.Write([]byte("http\n" + method + "\n" + path + "\n" + canonicalQuery + "\n"))
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// MessageFingerprint is the fingerprint of a direct gRPC call: the full
// method name and the request's deterministic protobuf bytes.
func MessageFingerprint(fullMethod string, req proto.Message) (string, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("idempotency: fingerprint: %w", err)
	}
	h := sha256.New()
	h.Write([]byte("grpc\n" + fullMethod + "\n"))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Request is one guarded call.
type Request struct {
	// Scope owns the key: an app, or an internal caller.
	Scope       string
	Key         string
	Fingerprint string
	// Method is the full gRPC method; Output its response type, which a
	// replay decodes the stored bytes into.
	Method string
	Output protoreflect.FullName
	// RequestID names the request; a replay reports the one whose answer
	// it is.
	RequestID string
	// OutsideTx runs the call with no transaction in its context and keeps
	// its answer in a transaction of its own afterwards: for a call that
	// commits its own steps around a call to an outside party. The key's
	// lease still holds off a second attempt with the same key while the
	// call runs.
	OutsideTx bool
}

// Replay describes an answer given again instead of running the call.
type Replay struct {
	// RequestID is the request id of the request that ran ("" for keys
	// kept before request ids were).
	RequestID string
}

// Guard runs guarded calls over a Store.
type Guard struct {
	store Store
	clock clock.Clock
	lease time.Duration
}

// Config configures a Guard.
type Config struct {
	Store Store
	// Clock is the time leases and retention are measured in (default the
	// wall clock).
	Clock clock.Clock
	// Lease defaults to DefaultLease.
	Lease time.Duration
}

// New returns a Guard.
func New(cfg Config) (*Guard, error) {
	if cfg.Store == nil {
		return nil, errors.New("idempotency: a store is required")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	return &Guard{store: cfg.Store, clock: cfg.Clock, lease: cfg.Lease}, nil
}

// Do runs call once per key. The first request claims the key, runs call
// with a transaction in its context and completes the key in that same
// transaction; a repeat with the same fingerprint gets the stored answer
// (with a non-nil Replay), one with another fingerprint
// IDEMPOTENCY_KEY_REUSED, one while the first still runs
// IDEMPOTENCY_KEY_IN_PROGRESS. An answer that a retry could change (the
// request's form, auth, conflicts, limits, the platform's own failures) is not
// kept: the key is released.
func (g *Guard) Do(ctx context.Context, r Request, call func(ctx context.Context) (proto.Message, error)) (resp proto.Message, replayed *Replay, err error) {
	holder, err := newHolder()
	if err != nil {
		return nil, nil, err
	}
	now := g.clock.Now()
	claim := Claim{Scope: r.Scope, Key: r.Key, Fingerprint: r.Fingerprint, Method: r.Method,
		Holder: holder, RequestID: r.RequestID, Now: now, LockedUntil: now.Add(g.lease)}
	rec, err := g.store.Claim(ctx, claim)
	if err != nil {
		return nil, nil, err
	}
	if rec.Holder != holder {
		if rec.Fingerprint != r.Fingerprint || rec.Method != r.Method {
			return nil, nil, apierr.New(codeReused, "this Idempotency-Key was used with a different request; use a new key")
		}
		if rec.Completed {
			resp, err := replay(r.Output, rec.Answer)
			return resp, &Replay{RequestID: rec.RequestID}, err
		}
		if rec.LockedUntil.After(now) {
			return nil, nil, inProgress()
		}
		// The holder's lease ended: it died or gave up; this attempt takes
		// the key over. Its write, if it ever commits, cannot complete the
		// key (Complete checks the holder), so it rolls back.
		ok, err := g.store.TakeOver(ctx, claim)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, inProgress()
		}
	}

	keep := func(ctx context.Context, resp proto.Message) error {
		b, merr := proto.MarshalOptions{Deterministic: true}.Marshal(resp)
		if merr != nil {
			return fmt.Errorf("idempotency: keep the answer: %w", merr)
		}
		if b == nil {
			b = []byte{}
		}
		return g.store.Complete(ctx, r.Scope, r.Key, holder, Answer{Response: b}, g.clock.Now())
	}
	if r.OutsideTx {
		resp, err = call(ctx)
		if err == nil {
			// The call committed; a failure to keep its answer must not
			// turn it into an error (the work is done): the key is freed
			// by its lease, and a retry meets the committed state.
			after, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			_ = g.store.InTx(after, func(ctx context.Context) error { return keep(ctx, resp) })
			return resp, nil, nil
		}
	} else {
		err = g.store.InTx(ctx, func(ctx context.Context) error {
			var cerr error
			resp, cerr = call(ctx)
			if cerr != nil {
				return cerr
			}
			return keep(ctx, resp)
		})
	}
	if err == nil {
		return resp, nil, nil
	}
	if errors.Is(err, ErrLeaseLost) {
		return nil, nil, inProgress()
	}
	// The write rolled back. Keep a final answer; free the key otherwise.
	// Both outlive a cancelled request, so the key is not left to its lease.
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if e, ok := apierr.As(err); ok && kept(e.Code) {
		if cerr := g.store.Complete(after, r.Scope, r.Key, holder, Answer{ErrorCode: int32(e.Code), ErrorMessage: e.Message, ErrorFields: e.Fields}, g.clock.Now()); cerr != nil && !errors.Is(cerr, ErrLeaseLost) {
			return nil, nil, errors.Join(err, cerr)
		}
		return nil, nil, err
	}
	if rerr := g.store.Release(after, r.Scope, r.Key, holder); rerr != nil {
		return nil, nil, errors.Join(err, rerr)
	}
	return nil, nil, err
}

// kept tells the error answers that are final verdicts on the request as it
// ran (a 404, a 422): a retry would get the same. Form errors (400, 413),
// auth (401, 403), conflicts a retry may clear (409), limits (429) and the
// platform's failures (5xx) are not kept.
func kept(c apierr.Code) bool {
	s := apierr.HTTPStatus(c)
	switch s {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict,
		http.StatusRequestEntityTooLarge, http.StatusTooManyRequests:
		return false
	}
	return s >= 400 && s < 500
}

func inProgress() error {
	return apierr.New(codeInProgress, "a request with this Idempotency-Key is still being processed; retry after the Retry-After delay")
}

func replay(output protoreflect.FullName, a Answer) (proto.Message, error) {
	if a.ErrorCode != 0 {
		e := apierr.New(apierr.Code(a.ErrorCode), a.ErrorMessage)
		e.Fields = a.ErrorFields
		return nil, e
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(output)
	if err != nil {
		return nil, fmt.Errorf("idempotency: replay %s: %w", output, err)
	}
	m := mt.New().Interface()
	if err := proto.Unmarshal(a.Response, m); err != nil {
		return nil, fmt.Errorf("idempotency: replay %s: %w", output, err)
	}
	return m, nil
}

func newHolder() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("idempotency: holder token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
