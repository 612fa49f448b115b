package cancellation

import (
	"context"
	"fmt"
	"time"

	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/cancellationrequest"
	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/deadline"
)

// EntStore keeps requests in the cancellation_requests table.
type EntStore struct {
	client *ent.Client
	// pool is set on PostgreSQL: the order reads' lookup goes to pgx
	// directly (store_pg.go).
	pool *pgxpool.Pool
}

// NewEntStore returns a store over d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent, pool: d.Pool} }

var (
	_ Store                    = (*EntStore)(nil)
	_ deadline.Store[*Request] = (*EntStore)(nil)
)

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

func notFound() error { return apierr.New(apierr.NotFound, "cancellation request not found") }

// sellerRequests starts every query of requests: the seller filter is
// written here and nowhere else, and a query without a seller never
// reaches the database (ok is false).
func (s *EntStore) sellerRequests(ctx context.Context, sellerID string) (*ent.CancellationRequestQuery, bool) {
	if sellerID == "" {
		return nil, false
	}
	return s.db(ctx).CancellationRequest.Query().Where(cancellationrequest.SellerID(sellerID)), true
}

// Create implements Store: the database holds one pending request per
// order (a partial unique index), so of two racing creates one commits.
func (s *EntStore) Create(ctx context.Context, r *Request) error {
	err := s.db(ctx).CancellationRequest.Create().SetID(r.ID).SetSellerID(r.SellerID).SetOrderID(r.OrderID).
		SetStatus(cancellationrequest.Status(r.Status)).SetReason(r.Reason).SetRequestedAt(r.RequestedAt).
		SetRespondBy(r.RespondBy).SetCreatedAt(r.CreatedAt).SetUpdatedAt(r.UpdatedAt).Exec(ctx)
	if ent.IsConstraintError(err) {
		return apierr.New(errorsv1.ErrorCode_ERROR_CODE_CONFLICT, "the order has a pending cancellation request already")
	}
	if err != nil {
		return fmt.Errorf("cancellation: create: %w", err)
	}
	return nil
}

// Get implements Store.
func (s *EntStore) Get(ctx context.Context, sellerID, id string) (*Request, error) {
	q, ok := s.sellerRequests(ctx, sellerID)
	if !ok {
		return nil, notFound()
	}
	return one(q.Where(cancellationrequest.ID(id)).Only(ctx))
}

// ForOrder implements Store.
func (s *EntStore) ForOrder(ctx context.Context, sellerID, orderID string) (*Request, error) {
	q, ok := s.sellerRequests(ctx, sellerID)
	if !ok {
		return nil, notFound()
	}
	return one(q.Where(cancellationrequest.OrderID(orderID)).
		Order(cancellationrequest.ByCreatedAt(entsql.OrderDesc()), cancellationrequest.ByID(entsql.OrderDesc())).First(ctx))
}

func one(row *ent.CancellationRequest, err error) (*Request, error) {
	if ent.IsNotFound(err) {
		return nil, notFound()
	}
	if err != nil {
		return nil, fmt.Errorf("cancellation: read: %w", err)
	}
	return fromEnt(row), nil
}

// List implements Store.
func (s *EntStore) List(ctx context.Context, sellerID string, status Status, p Page) ([]*Request, bool, error) {
	q, ok := s.sellerRequests(ctx, sellerID)
	if !ok {
		return nil, false, nil
	}
	if status != "" {
		q = q.Where(cancellationrequest.StatusEQ(cancellationrequest.Status(status)))
	}
	if p.After != nil {
		at, id := p.After.CreatedAt, p.After.ID
		q = q.Where(func(sel *entsql.Selector) {
			sel.Where(entsql.CompositeLT([]string{sel.C(cancellationrequest.FieldCreatedAt), sel.C(cancellationrequest.FieldID)}, at, id))
		})
	} else if p.Offset > 0 {
		q = q.Offset(p.Offset)
	}
	rows, err := q.Order(cancellationrequest.ByCreatedAt(entsql.OrderDesc()), cancellationrequest.ByID(entsql.OrderDesc())).
		Limit(p.Limit + 1).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("cancellation: list: %w", err)
	}
	more := len(rows) > p.Limit
	if more {
		rows = rows[:p.Limit]
	}
	out := make([]*Request, len(rows))
	for i, r := range rows {
		out[i] = fromEnt(r)
	}
	return out, more, nil
}

// Count implements Store.
func (s *EntStore) Count(ctx context.Context, sellerID string, status Status) (int64, error) {
	q, ok := s.sellerRequests(ctx, sellerID)
	if !ok {
		return 0, nil
	}
	if status != "" {
		q = q.Where(cancellationrequest.StatusEQ(cancellationrequest.Status(status)))
	}
	n, err := q.Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("cancellation: count: %w", err)
	}
	return int64(n), nil
}

// Decide implements Store: one conditional UPDATE.
func (s *EntStore) Decide(ctx context.Context, sellerID, id string, to Status, rejectReason string, at time.Time) (bool, error) {
	return s.move(ctx, sellerID, id, Pending, to, rejectReason, at)
}

// Overturn implements Store: one conditional UPDATE.
func (s *EntStore) Overturn(ctx context.Context, sellerID, id string, from, to Status, rejectReason string, at time.Time) (bool, error) {
	return s.move(ctx, sellerID, id, from, to, rejectReason, at)
}

func (s *EntStore) move(ctx context.Context, sellerID, id string, from, to Status, rejectReason string, at time.Time) (bool, error) {
	if sellerID == "" {
		return false, notFound()
	}
	n, err := s.db(ctx).CancellationRequest.Update().
		Where(cancellationrequest.ID(id), cancellationrequest.SellerID(sellerID), cancellationrequest.StatusEQ(cancellationrequest.Status(from))).
		SetStatus(cancellationrequest.Status(to)).SetRejectReason(rejectReason).SetDecidedAt(at).SetUpdatedAt(at).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("cancellation: %s to %s %s: %w", from, to, id, err)
	}
	return n == 1, nil
}

// LatestForOrders implements Store: one query over the seller's requests
// of those orders (its index leads with seller and order), newest first,
// keeping the first of each order.
func (s *EntStore) LatestForOrders(ctx context.Context, sellerID string, orderIDs []string) (map[string]*Request, error) {
	q, ok := s.sellerRequests(ctx, sellerID)
	if !ok || len(orderIDs) == 0 {
		return nil, nil
	}
	if _, inTx := db.TxFromContext(ctx); s.pool != nil && !inTx {
		// Inside a transaction the read goes through it, to see the
		// transaction's own writes.
		return s.latestForOrdersPostgres(ctx, sellerID, orderIDs)
	}
	if len(orderIDs) == 1 {
		q = q.Where(cancellationrequest.OrderID(orderIDs[0]))
	} else {
		q = q.Where(cancellationrequest.OrderIDIn(orderIDs...))
	}
	rows, err := q.Order(cancellationrequest.ByCreatedAt(entsql.OrderDesc()), cancellationrequest.ByID(entsql.OrderDesc())).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("cancellation: read the orders' requests: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	out := make(map[string]*Request, len(rows))
	for _, r := range rows {
		if _, seen := out[r.OrderID]; !seen {
			out[r.OrderID] = fromEnt(r)
		}
	}
	return out, nil
}

// Load implements deadline.Store.
func (s *EntStore) Load(ctx context.Context, ref deadline.Ref) (*Request, error) {
	return s.Get(ctx, ref.SellerID, ref.ID)
}

// Advance implements deadline.Store.
func (s *EntStore) Advance(ctx context.Context, ref deadline.Ref, m deadline.Move) (bool, error) {
	if m.From != string(Pending) {
		return false, fmt.Errorf("cancellation: no automatic move from %s", m.From)
	}
	return s.Decide(ctx, ref.SellerID, ref.ID, Status(m.To), "", m.At)
}

// Due implements deadline.Store: pending requests whose deadline is before
// now.
func (s *EntStore) Due(ctx context.Context, seller string, now time.Time, limit int) ([]deadline.Ref, error) {
	q := s.db(ctx).CancellationRequest.Query().
		Where(cancellationrequest.StatusEQ(cancellationrequest.StatusPENDING), cancellationrequest.RespondByLT(now))
	if seller != "" {
		q = q.Where(cancellationrequest.SellerID(seller))
	}
	rows, err := q.Order(cancellationrequest.ByRespondBy(), cancellationrequest.ByID()).Limit(limit).
		Select(cancellationrequest.FieldID, cancellationrequest.FieldSellerID).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("cancellation: due: %w", err)
	}
	out := make([]deadline.Ref, len(rows))
	for i, r := range rows {
		out[i] = deadline.Ref{SellerID: r.SellerID, ID: r.ID}
	}
	return out, nil
}

func fromEnt(r *ent.CancellationRequest) *Request {
	out := &Request{
		ID: r.ID, SellerID: r.SellerID, OrderID: r.OrderID, Status: Status(r.Status), Reason: r.Reason,
		RejectReason: r.RejectReason, RequestedAt: r.RequestedAt.UTC(), RespondBy: r.RespondBy.UTC(),
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
	if r.DecidedAt != nil {
		d := r.DecidedAt.UTC()
		out.DecidedAt = &d
	}
	return out
}
