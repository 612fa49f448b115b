package cancellation

import (
	"context"
	"fmt"
	"time"
)

// latestForOrdersPostgresSQL reads the latest request of each of a
// seller's orders ($1 seller id, $2 order ids) on the index
// (seller_id, order_id, created_at): one index range per order.
const latestForOrdersPostgresSQL = `
SELECT DISTINCT ON (order_id) order_id, id, status, reason, reject_reason,
       requested_at, respond_by, decided_at, created_at, updated_at
  FROM cancellation_requests
 WHERE seller_id = $1 AND order_id = ANY($2)
 ORDER BY order_id, created_at DESC, id DESC`

// latestForOrdersPostgres runs latestForOrdersPostgresSQL on the pgx pool
// itself: it rides on every order read, the API's hottest path, where ent
// and database/sql would cost several times the query.
func (s *EntStore) latestForOrdersPostgres(ctx context.Context, sellerID string, orderIDs []string) (map[string]*Request, error) {
	rows, err := s.pool.Query(ctx, latestForOrdersPostgresSQL, sellerID, orderIDs)
	if err != nil {
		return nil, fmt.Errorf("cancellation: read the orders' requests: %w", err)
	}
	defer rows.Close()
	var out map[string]*Request
	for rows.Next() {
		r := &Request{SellerID: sellerID}
		var (
			status    string
			rejection *string
			decided   *time.Time
		)
		if err := rows.Scan(&r.OrderID, &r.ID, &status, &r.Reason, &rejection, &r.RequestedAt, &r.RespondBy, &decided,
			&r.CreatedAt, &r.UpdatedAt); err != nil {
			return nil, fmt.Errorf("cancellation: read the orders' requests: %w", err)
		}
		r.Status = Status(status)
		if rejection != nil {
			r.RejectReason = *rejection
		}
		r.RequestedAt, r.RespondBy, r.CreatedAt, r.UpdatedAt = r.RequestedAt.UTC(), r.RespondBy.UTC(), r.CreatedAt.UTC(), r.UpdatedAt.UTC()
		if decided != nil {
			d := decided.UTC()
			r.DecidedAt = &d
		}
		if out == nil {
			out = make(map[string]*Request, len(orderIDs))
		}
		out[r.OrderID] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("cancellation: read the orders' requests: %w", err)
	}
	return out, nil
}
