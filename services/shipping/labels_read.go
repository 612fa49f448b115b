package shipping

import (
	"context"
	"errors"
	"time"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/label"
)

// labels gathers the labels of the calling seller's orders, in the order
// given, and the latest booking time among them (the document's creation
// date, so that the same bookings always print the same bytes). The
// courier's part (tracking number, company, route code) is what the booking
// recorded, so a label prints without calling the courier: a reprint works
// while the courier is unreachable, and 50 labels cost no network round
// trip each.
func (s *Service) labels(ctx context.Context, orderIDs []string) ([]label.Label, time.Time, error) {
	seller, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, time.Time{}, err
	}
	if s.orders == nil || s.shipments == nil || s.sellers == nil {
		return nil, time.Time{}, apierr.New(apierr.ServiceUnavailable, "labels cannot be printed right now")
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	facts, err := s.orders.LabelFactsBatch(ctx, seller, orderIDs)
	if err != nil {
		return nil, time.Time{}, err
	}
	live, err := s.shipments.LiveByOrders(ctx, seller, orderIDs)
	if err != nil {
		return nil, time.Time{}, err
	}
	out := make([]label.Label, len(orderIDs))
	senders := map[string]label.Party{}
	var latest time.Time
	for i, id := range orderIDs {
		f, ok := facts[id]
		if !ok {
			return nil, time.Time{}, apierr.Newf(apierr.NotFound, "order %s not found", id)
		}
		sh, found := live[id]
		if !found || !sh.Booked() {
			return nil, time.Time{}, apierr.Newf(labelUnavailable, "order %s has no booked shipment: book one first (a cancelled booking prints no label)", id)
		}
		sender, ok := senders[sh.AddressID]
		if !ok {
			addr, err := s.sellers.PickupAddress(ctx, seller, sh.AddressID)
			if errors.Is(err, sellers.ErrNotFound) {
				return nil, time.Time{}, apierr.Newf(labelUnavailable, "order %s: the shipment's pickup address no longer exists", id)
			}
			if err != nil {
				return nil, time.Time{}, err
			}
			sender = label.Party{Name: addr.Name, Phone: addr.Phone, Line1: addr.Line1, Line2: addr.Line2,
				City: addr.City, Province: addr.Province, Region: addr.Region, PostalCode: addr.PostalCode}
			senders[sh.AddressID] = sender
		}
		out[i] = label.Label{TrackingNumber: sh.TrackingNumber, TrackingCompany: sh.TrackingCompany, RouteCode: sh.RouteCode,
			OrderID: id, Sender: sender, ShipBy: f.ShipByDate, CODAmount: f.CODAmount,
			Recipient: label.Party{Name: f.RecipientName, Phone: f.Phone, Line1: f.Line1, Line2: f.Line2,
				City: f.City, Province: f.Province, PostalCode: f.PostalCode}}
		if sh.BookedAt != nil && sh.BookedAt.After(latest) {
			latest = *sh.BookedAt
		}
	}
	return out, latest, nil
}
