package returns

import (
	"context"
	"fmt"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/predicate"
	"github.com/mallplatform/partnerapi/ent/returndispute"
	"github.com/mallplatform/partnerapi/ent/returnitem"
	"github.com/mallplatform/partnerapi/ent/returnrequest"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/deadline"
	"github.com/mallplatform/partnerapi/internal/ids"
)

// EntStore keeps returns in the returns, return_items and return_disputes
// tables.
type EntStore struct {
	client *ent.Client
}

// NewEntStore returns a store over d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent} }

var (
	_ Store                   = (*EntStore)(nil)
	_ deadline.Store[*Return] = (*EntStore)(nil)
)

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

func notFound() error { return apierr.New(apierr.NotFound, "return not found") }

// sellerReturns starts every query of returns: the seller filter is written
// here and nowhere else, and a query without a seller never reaches the
// database (ok is false).
func (s *EntStore) sellerReturns(ctx context.Context, sellerID string) (*ent.ReturnRequestQuery, bool) {
	if sellerID == "" {
		return nil, false
	}
	return s.db(ctx).ReturnRequest.Query().Where(returnrequest.SellerID(sellerID)), true
}

// Create implements Store.
func (s *EntStore) Create(ctx context.Context, r *Return) error {
	return db.InTx(ctx, s.client, func(ctx context.Context) error {
		c := s.db(ctx)
		d := r.Deadlines
		err := c.ReturnRequest.Create().SetID(r.ID).SetSellerID(r.SellerID).SetOrderID(r.OrderID).
			SetStatus(returnrequest.Status(r.Status)).SetReason(r.Reason).SetBuyerNote(r.BuyerNote).
			SetEvidence(nonNil(r.Evidence)).SetRefundAmount(r.RefundAmount).SetRefundedAmount(r.RefundedAmount).
			SetCurrency(r.Currency).SetRefundOnly(r.RefundOnly).SetReturnTrackingNumber(r.ReturnTrackingNumber).
			SetNillableSellerResponseBy(d.SellerResponseBy).SetNillableBuyerShipBy(d.BuyerShipBy).
			SetNillableInspectBy(d.InspectBy).SetNillableDisputeBy(d.DisputeBy).SetNillableAutoDueAt(AutoDue(r.State)).
			SetAutoFrom(string(r.AutoFrom)).SetCreatedAt(r.CreatedAt).SetUpdatedAt(r.UpdatedAt).Exec(ctx)
		if err != nil {
			return fmt.Errorf("returns: create: %w", err)
		}
		if len(r.Items) == 0 {
			return nil
		}
		items := make([]*ent.ReturnItemCreate, len(r.Items))
		for i, it := range r.Items {
			items[i] = c.ReturnItem.Create().SetID(ids.New("rti")).SetReturnID(r.ID).SetItemID(it.ItemID).
				SetQuantity(it.Quantity).SetRefundAmount(it.RefundAmount).SetPosition(i)
		}
		if err := c.ReturnItem.CreateBulk(items...).Exec(ctx); err != nil {
			return fmt.Errorf("returns: create items: %w", err)
		}
		return nil
	})
}

// Get implements Store.
func (s *EntStore) Get(ctx context.Context, sellerID, id string) (*Return, error) {
	q, ok := s.sellerReturns(ctx, sellerID)
	if !ok {
		return nil, notFound()
	}
	row, err := q.Where(returnrequest.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFound()
	}
	if err != nil {
		return nil, fmt.Errorf("returns: get: %w", err)
	}
	out := []*Return{fromEnt(row)}
	if err := s.loadChildren(ctx, out); err != nil {
		return nil, err
	}
	return out[0], nil
}

// List implements Store.
func (s *EntStore) List(ctx context.Context, sellerID string, f Filter, p Page) ([]*Return, bool, error) {
	q, ok := s.sellerReturns(ctx, sellerID)
	if !ok {
		return nil, false, nil
	}
	q = q.Where(filterPredicates(f)...)
	if p.After != nil {
		at, id := p.After.CreatedAt, p.After.ID
		q = q.Where(func(sel *entsql.Selector) {
			sel.Where(entsql.CompositeLT([]string{sel.C(returnrequest.FieldCreatedAt), sel.C(returnrequest.FieldID)}, at, id))
		})
	} else if p.Offset > 0 {
		q = q.Offset(p.Offset)
	}
	// One extra row tells whether another page follows.
	rows, err := q.Order(returnrequest.ByCreatedAt(entsql.OrderDesc()), returnrequest.ByID(entsql.OrderDesc())).
		Limit(p.Limit + 1).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("returns: list: %w", err)
	}
	more := len(rows) > p.Limit
	if more {
		rows = rows[:p.Limit]
	}
	out := make([]*Return, len(rows))
	for i, r := range rows {
		out[i] = fromEnt(r)
	}
	if err := s.loadChildren(ctx, out); err != nil {
		return nil, false, err
	}
	return out, more, nil
}

// Count implements Store.
func (s *EntStore) Count(ctx context.Context, sellerID string, f Filter) (int64, error) {
	q, ok := s.sellerReturns(ctx, sellerID)
	if !ok {
		return 0, nil
	}
	n, err := q.Where(filterPredicates(f)...).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("returns: count: %w", err)
	}
	return int64(n), nil
}

func filterPredicates(f Filter) []predicate.ReturnRequest {
	var ps []predicate.ReturnRequest
	if f.Status != "" {
		ps = append(ps, returnrequest.StatusEQ(returnrequest.Status(f.Status)))
	}
	if f.OrderID != "" {
		ps = append(ps, returnrequest.OrderID(f.OrderID))
	}
	if f.CreatedAfter != nil {
		ps = append(ps, returnrequest.CreatedAtGTE(*f.CreatedAfter))
	}
	if f.CreatedBefore != nil {
		ps = append(ps, returnrequest.CreatedAtLT(*f.CreatedBefore))
	}
	return ps
}

// Move implements Store: one conditional UPDATE, so of two moves racing
// from one status exactly one changes the row.
func (s *EntStore) Move(ctx context.Context, sellerID, id string, m Move) (bool, error) {
	if sellerID == "" {
		return false, notFound()
	}
	d := m.To.Deadlines
	u := s.db(ctx).ReturnRequest.Update().
		Where(returnrequest.ID(id), returnrequest.SellerID(sellerID), returnrequest.StatusEQ(returnrequest.Status(m.From))).
		SetStatus(returnrequest.Status(m.To.Status)).SetAutoFrom(string(m.To.AutoFrom)).SetUpdatedAt(m.At).
		SetNillableSellerResponseBy(d.SellerResponseBy).SetNillableBuyerShipBy(d.BuyerShipBy).
		SetNillableInspectBy(d.InspectBy).SetNillableDisputeBy(d.DisputeBy)
	if due := AutoDue(m.To); due != nil {
		u.SetAutoDueAt(*due)
	} else {
		u.ClearAutoDueAt()
	}
	if m.RejectReason != "" || m.RejectNote != "" {
		u.SetRejectReason(m.RejectReason).SetRejectNote(m.RejectNote)
	}
	if m.RefundedAmount != nil {
		u.SetRefundedAmount(*m.RefundedAmount)
	}
	if m.TrackingNumber != nil {
		u.SetReturnTrackingNumber(*m.TrackingNumber)
	}
	n, err := u.Save(ctx)
	if err != nil {
		return false, fmt.Errorf("returns: move %s from %s: %w", id, m.From, err)
	}
	return n == 1, nil
}

// AddDispute implements Store.
func (s *EntStore) AddDispute(ctx context.Context, sellerID, returnID string, d DisputeCase) error {
	if _, err := s.Get(ctx, sellerID, returnID); err != nil {
		return err
	}
	err := s.db(ctx).ReturnDispute.Create().SetID(d.ID).SetReturnID(returnID).SetRaisedBy(returndispute.RaisedBy(d.RaisedBy)).
		SetReasonCode(d.ReasonCode).SetDescription(d.Description).SetEvidence(nonNil(d.Evidence)).
		SetOutcome(d.Outcome).SetNillableDecidedAt(d.DecidedAt).SetCreatedAt(d.CreatedAt).Exec(ctx)
	if err != nil {
		return fmt.Errorf("returns: add dispute: %w", err)
	}
	return nil
}

// DecideDispute implements Store.
func (s *EntStore) DecideDispute(ctx context.Context, sellerID, returnID, outcome string, at time.Time) error {
	if _, err := s.Get(ctx, sellerID, returnID); err != nil {
		return err
	}
	n, err := s.db(ctx).ReturnDispute.Update().Where(returndispute.ReturnID(returnID)).
		SetOutcome(outcome).SetDecidedAt(at).Save(ctx)
	if err != nil {
		return fmt.Errorf("returns: decide dispute: %w", err)
	}
	if n != 1 {
		return fmt.Errorf("returns: decide dispute: return %s has no dispute", returnID)
	}
	return nil
}

// Load implements deadline.Store.
func (s *EntStore) Load(ctx context.Context, ref deadline.Ref) (*Return, error) {
	return s.Get(ctx, ref.SellerID, ref.ID)
}

// Advance implements deadline.Store: the automatic move as a conditional
// update, the deadlines it starts counted from the deadline that passed.
func (s *EntStore) Advance(ctx context.Context, ref deadline.Ref, m deadline.Move) (bool, error) {
	to := ApplyAuto(State{Status: Status(m.From)}, m)
	mv := Move{From: Status(m.From), To: to, At: m.At}
	if to.Status == Refunded {
		// An automatic refund is the full amount asked back.
		r, err := s.Get(ctx, ref.SellerID, ref.ID)
		if err != nil {
			return false, err
		}
		mv.RefundedAmount = &r.RefundAmount
	}
	return s.Move(ctx, ref.SellerID, ref.ID, mv)
}

// Due implements deadline.Store: returns whose automatic move's deadline
// is before now (the deadline itself is still on time).
func (s *EntStore) Due(ctx context.Context, seller string, now time.Time, limit int) ([]deadline.Ref, error) {
	q := s.db(ctx).ReturnRequest.Query().Where(returnrequest.AutoDueAtLT(now))
	if seller != "" {
		q = q.Where(returnrequest.SellerID(seller))
	}
	rows, err := q.Order(returnrequest.ByAutoDueAt(), returnrequest.ByID()).Limit(limit).
		Select(returnrequest.FieldID, returnrequest.FieldSellerID).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("returns: due: %w", err)
	}
	out := make([]deadline.Ref, len(rows))
	for i, r := range rows {
		out[i] = deadline.Ref{SellerID: r.SellerID, ID: r.ID}
	}
	return out, nil
}

// loadChildren reads the items and disputes of rs in two queries.
func (s *EntStore) loadChildren(ctx context.Context, rs []*Return) error {
	if len(rs) == 0 {
		return nil
	}
	byID := make(map[string]*Return, len(rs))
	idList := make([]string, len(rs))
	for i, r := range rs {
		byID[r.ID], idList[i] = r, r.ID
	}
	items, err := s.db(ctx).ReturnItem.Query().Where(returnitem.ReturnIDIn(idList...)).
		Order(returnitem.ByReturnID(), returnitem.ByPosition()).All(ctx)
	if err != nil {
		return fmt.Errorf("returns: items: %w", err)
	}
	for _, it := range items {
		r := byID[it.ReturnID]
		r.Items = append(r.Items, Item{ItemID: it.ItemID, Quantity: it.Quantity, RefundAmount: it.RefundAmount})
	}
	disputes, err := s.db(ctx).ReturnDispute.Query().Where(returndispute.ReturnIDIn(idList...)).All(ctx)
	if err != nil {
		return fmt.Errorf("returns: disputes: %w", err)
	}
	for _, d := range disputes {
		byID[d.ReturnID].Dispute = &DisputeCase{ID: d.ID, RaisedBy: string(d.RaisedBy), ReasonCode: d.ReasonCode,
			Description: d.Description, Evidence: d.Evidence, Outcome: d.Outcome, DecidedAt: utcPtr(d.DecidedAt),
			CreatedAt: d.CreatedAt.UTC()}
	}
	return nil
}

func fromEnt(r *ent.ReturnRequest) *Return {
	return &Return{
		ID: r.ID, OrderID: r.OrderID, SellerID: r.SellerID,
		State: State{Status: Status(r.Status), RefundOnly: r.RefundOnly, AutoFrom: Status(r.AutoFrom), Deadlines: Deadlines{
			SellerResponseBy: utcPtr(r.SellerResponseBy), BuyerShipBy: utcPtr(r.BuyerShipBy),
			InspectBy: utcPtr(r.InspectBy), DisputeBy: utcPtr(r.DisputeBy),
		}},
		Reason: r.Reason, BuyerNote: r.BuyerNote, Evidence: r.Evidence, Items: []Item{},
		RefundAmount: r.RefundAmount, RefundedAmount: r.RefundedAmount, Currency: r.Currency,
		ReturnTrackingNumber: r.ReturnTrackingNumber, RejectReason: r.RejectReason, RejectNote: r.RejectNote,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
