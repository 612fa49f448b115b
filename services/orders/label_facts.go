package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	resourceids "github.com/mallplatform/partnerapi/internal/ids"
)

// PaymentStatusCOD is the payment status of a cash-on-delivery order:
// nothing is paid yet and the courier collects the order's total from the
// buyer on delivery. Any other status is a prepaid order.
const PaymentStatusCOD = "cod"

// LabelFacts is what the shipping domain prints of an order on its
// shipping label: read here so that shipping never touches the order
// tables.
type LabelFacts struct {
	OrderID  string
	SellerID string
	// Recipient is the shipping address's person and place, as stored:
	// City and Province are PSGC names.
	RecipientName, Phone string
	Line1, Line2         string
	City, Province       string
	PostalCode           string
	// CODAmount is what the courier collects in centavos: the order's
	// total when it is cash on delivery (PaymentStatusCOD), 0 otherwise.
	CODAmount int64
	// ShipByDate is the ship-by deadline; nil when the order has none.
	ShipByDate *time.Time
}

// MaxLabelFacts is the most orders LabelFactsBatch reads at once (the bulk
// label route's limit).
const MaxLabelFacts = 50

// labelOrdersReader is the store's read of orders without their items and
// fulfillments, which a label does not print: one statement for a batch.
// A store without it (a test double) is read through GetOrders.
type labelOrdersReader interface {
	LabelOrders(ctx context.Context, sellerID string, ids []string) ([]*Order, error)
}

// LabelFacts reads one of sellerID's orders for its label. A missing order
// and another seller's order are the same NOT_FOUND.
func (s *Service) LabelFacts(ctx context.Context, sellerID, orderID string) (LabelFacts, error) {
	got, err := s.LabelFactsBatch(ctx, sellerID, []string{orderID})
	if err != nil {
		return LabelFacts{}, err
	}
	f, ok := got[orderID]
	if !ok {
		return LabelFacts{}, apierr.New(apierr.NotFound, "order not found")
	}
	return f, nil
}

// LabelFactsBatch reads those of sellerID's orders named (at most
// MaxLabelFacts) in one query, by order id; an order that does not exist or
// is another seller's is absent from the answer, for the caller to name.
func (s *Service) LabelFactsBatch(ctx context.Context, sellerID string, orderIDs []string) (map[string]LabelFacts, error) {
	if len(orderIDs) > MaxLabelFacts {
		return nil, fmt.Errorf("orders: %d label facts asked, at most %d", len(orderIDs), MaxLabelFacts)
	}
	ids := make([]string, 0, len(orderIDs))
	for _, id := range orderIDs {
		if resourceids.Plausible("ord", id) {
			ids = append(ids, id)
		}
	}
	out := make(map[string]LabelFacts, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []*Order
	var err error
	if r, ok := s.store.(labelOrdersReader); ok {
		rows, err = r.LabelOrders(ctx, sellerID, ids)
	} else {
		rows, err = s.store.GetOrders(ctx, sellerID, ids)
	}
	if err != nil {
		return nil, err
	}
	for _, o := range rows {
		out[o.ID] = labelFactsOf(o)
	}
	return out, nil
}

func labelFactsOf(o *Order) LabelFacts {
	a := o.ShippingAddress
	f := LabelFacts{OrderID: o.ID, SellerID: o.SellerID, RecipientName: a.Name, Phone: a.Phone,
		Line1: a.Line1, City: a.City, Province: a.Province, PostalCode: a.PostalCode, ShipByDate: o.ShipByDate}
	if a.Line2 != nil {
		f.Line2 = *a.Line2
	}
	if o.PaymentStatus == PaymentStatusCOD {
		f.CODAmount = o.Total
	}
	return f
}
