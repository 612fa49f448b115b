// Package deadline is the platform's one mechanism for moves that happen by
// themselves when a deadline passes: a return the seller did not answer is
// approved, a cancellation request the seller did not answer is approved, an
// order past its ship-by date is flagged. Every such deadline runs on the
// shop's business clock (a sandbox test shop's clock jumps forward), and a
// move that is due is applied by whichever comes first:
//
//   - a read or an action on the entity, which settles it in its own
//     transaction before answering (Subject.Settle), so no partner ever sees
//     an entity in a state whose deadline has passed;
//   - the worker job (Job), which sweeps the entities with a move due and
//     settles each in a transaction of its own, so the move and its event
//     happen even when nobody reads.
//
// Both go through Subject.Settle. Each move is a conditional update (from
// the status the rule saw, on the entity's row) and its event is recorded
// only when that update changed the row, in the same transaction: two
// settlers racing apply the move, and record its event, exactly once. An
// automatic move takes effect at its deadline (the event's time and the
// entity's update time are the deadline, not the moment a settler came by),
// so the outcome is the same whoever applies it, and moves chain: a return
// approved automatically at its response deadline gets its ship-by deadline
// from that moment, and may itself be due already.
package deadline

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Ref names one entity with deadlines.
type Ref struct {
	SellerID string
	ID       string
}

// Move is one automatic move: the entity goes from status From to status
// To, taking effect at At (the deadline that passed).
type Move struct {
	From string
	To   string
	At   time.Time
}

// Rule is a subject's pure rule: the automatic move due on e at now, if
// any. A move is due when now is after its deadline (a deadline is the last
// moment an action is still on time).
type Rule[E any] func(e E, now time.Time) (Move, bool)

// Store is what a subject's storage offers the mechanism. Every method runs
// on the transaction ctx carries, when it carries one.
type Store[E any] interface {
	// Load reads the entity (the subject's not-found error when it is not
	// the seller's).
	Load(ctx context.Context, ref Ref) (E, error)
	// Advance applies m to the entity only if its status is still m.From
	// (a conditional update of its row), and reports whether it did; false
	// means another settler or an action moved it first.
	Advance(ctx context.Context, ref Ref, m Move) (bool, error)
	// Due lists up to limit entities with an automatic move due at now:
	// the seller's, or every seller's when seller is empty.
	Due(ctx context.Context, seller string, now time.Time, limit int) ([]Ref, error)
}

// Recorder records the event of an applied move, given the entity as it is
// after the move, in the transaction ctx carries.
type Recorder[E any] func(ctx context.Context, e E, m Move) error

// TxRunner runs fn in a transaction, joining the one ctx carries
// (db.InTx over the subject's client).
type TxRunner func(ctx context.Context, fn func(ctx context.Context) error) error

// maxMoves bounds the moves one settlement applies: the longest chain of
// automatic moves of any subject is far shorter, so reaching it means a
// rule that never stops (a bug), which must not spin a transaction forever.
const maxMoves = 16

// ErrRunaway is Settle's answer when a rule keeps finding moves due past
// maxMoves.
var ErrRunaway = errors.New("deadline: a rule kept finding moves due")

// Subject is one kind of entity whose deadlines the mechanism keeps.
type Subject[E any] struct {
	// Name names the subject in logs and job kinds ("returns").
	Name   string
	Store  Store[E]
	Rule   Rule[E]
	Record Recorder[E]
	InTx   TxRunner
}

// Validate reports missing parts.
func (s *Subject[E]) Validate() error {
	if s == nil || s.Name == "" || s.Store == nil || s.Rule == nil || s.Record == nil || s.InTx == nil {
		return errors.New("deadline: a subject needs a name, a store, a rule, a recorder and a transaction runner")
	}
	return nil
}

// Settle applies every automatic move due on the entity at now (business
// time of its seller), each conditionally and each with its event, in the
// transaction ctx carries (or one of its own), and returns the entity as it
// stands afterwards with the moves this call applied. Reads and actions call
// it first and go on with the entity it returns, in the same transaction.
func (s *Subject[E]) Settle(ctx context.Context, ref Ref, now time.Time) (E, []Move, error) {
	var (
		out     E
		applied []Move
	)
	err := s.InTx(ctx, func(ctx context.Context) error {
		applied = applied[:0]
		e, err := s.Store.Load(ctx, ref)
		if err != nil {
			return err
		}
		for range maxMoves {
			m, due := s.Rule(e, now)
			if !due {
				out = e
				return nil
			}
			ok, err := s.Store.Advance(ctx, ref, m)
			if err != nil {
				return fmt.Errorf("deadline: %s %s: %s to %s: %w", s.Name, ref.ID, m.From, m.To, err)
			}
			// Moved or not, the row is read again: after our move to
			// record the event with the entity as it now is, after
			// another's to see what is left to do.
			if e, err = s.Store.Load(ctx, ref); err != nil {
				return err
			}
			if !ok {
				continue
			}
			if err := s.Record(ctx, e, m); err != nil {
				return fmt.Errorf("deadline: %s %s: event of %s to %s: %w", s.Name, ref.ID, m.From, m.To, err)
			}
			applied = append(applied, m)
		}
		return ErrRunaway
	})
	if err != nil {
		var zero E
		return zero, nil, err
	}
	return out, applied, nil
}

// SettleDue settles every entity of seller with a move due at now, in the
// transaction ctx carries (or one of its own), and reports how many moves
// it applied. A listing calls it before reading, so none of the entities
// it shows is in a state whose deadline has passed.
func (s *Subject[E]) SettleDue(ctx context.Context, seller string, now time.Time) (int, error) {
	if seller == "" {
		return 0, errors.New("deadline: settling a listing needs its seller")
	}
	moved := 0
	err := s.InTx(ctx, func(ctx context.Context) error {
		moved = 0
		for {
			refs, err := s.Store.Due(ctx, seller, now, batch)
			if err != nil {
				return err
			}
			progress := false
			for _, ref := range refs {
				_, moves, err := s.Settle(ctx, ref, now)
				if err != nil {
					return err
				}
				moved += len(moves)
				progress = progress || len(moves) > 0
			}
			// Settled in this transaction, the listed entities are no
			// longer due: a full batch means there may be more. One
			// that moved nothing means the store lists what the rule
			// does not move (a bug): stop rather than spin.
			if len(refs) < batch || !progress {
				return nil
			}
		}
	})
	return moved, err
}
