package shipments

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/shipment"
	"github.com/mallplatform/partnerapi/ent/shipmenttrackingevent"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// IDPrefix starts every shipment id.
const IDPrefix = "shp"

// eventIDPrefix starts every tracking event id.
const eventIDPrefix = "shev"

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on d.
func NewEntStore(d *db.DB) *EntStore { return &EntStore{client: d.Ent} }

func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}

// CreatePending implements Store. The partial unique index on order_id
// (shipment_one_active_per_order) decides between racing bookings.
func (s *EntStore) CreatePending(ctx context.Context, sh Shipment) (Shipment, error) {
	row, err := s.db(ctx).Shipment.Create().
		SetID(sh.ID).SetSellerID(sh.SellerID).SetOrderID(sh.OrderID).
		SetStatus(shipment.StatusPENDING).SetMethod(shipment.Method(sh.Method)).
		SetChannelID(sh.ChannelID).SetPickupDate(sh.PickupDate).
		SetWindowStart(sh.Window.Start).SetWindowEnd(sh.Window.End).
		SetAddressID(sh.AddressID).SetCarrier(sh.Carrier).SetReference(sh.Reference).
		Save(ctx)
	if ent.IsConstraintError(err) {
		// The reference is derived from the id, which is fresh: the
		// only unique key this insert can meet is the order's.
		return Shipment{}, fmt.Errorf("%w (%v)", ErrAlreadyArranged, err)
	}
	if err != nil {
		return Shipment{}, fmt.Errorf("shipments: create: %w", err)
	}
	return fromRow(row), nil
}

// Get implements Store.
func (s *EntStore) Get(ctx context.Context, sellerID, id string) (Shipment, error) {
	row, err := s.db(ctx).Shipment.Query().Where(shipment.ID(id), shipment.SellerID(sellerID)).Only(ctx)
	return one(row, err, "get")
}

// LiveByOrder implements Store.
func (s *EntStore) LiveByOrder(ctx context.Context, sellerID, orderID string) (Shipment, error) {
	row, err := s.db(ctx).Shipment.Query().
		Where(shipment.OrderID(orderID), shipment.SellerID(sellerID), shipment.StatusNEQ(shipment.StatusCANCELLED)).
		Only(ctx)
	return one(row, err, "live by order")
}

// LiveByOrders implements Store.
func (s *EntStore) LiveByOrders(ctx context.Context, sellerID string, orderIDs []string) (map[string]Shipment, error) {
	rows, err := s.db(ctx).Shipment.Query().
		Where(shipment.OrderIDIn(orderIDs...), shipment.SellerID(sellerID), shipment.StatusNEQ(shipment.StatusCANCELLED)).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("shipments: live by orders: %w", err)
	}
	out := make(map[string]Shipment, len(rows))
	for _, r := range rows {
		out[r.OrderID] = fromRow(r)
	}
	return out, nil
}

// ByTrackingNumber implements Store.
func (s *EntStore) ByTrackingNumber(ctx context.Context, carrierName, trackingNumber string) (Shipment, error) {
	if trackingNumber == "" {
		return Shipment{}, ErrNotFound
	}
	// A number is the courier's: after a void it may name a cancelled
	// booking and, rarely, a later one; the newest is the parcel moving.
	row, err := s.db(ctx).Shipment.Query().
		Where(shipment.Carrier(carrierName), shipment.TrackingNumber(trackingNumber)).
		Order(ent.Desc(shipment.FieldCreatedAt), ent.Desc(shipment.FieldID)).
		First(ctx)
	return one(row, err, "by tracking number")
}

// RecordBooking implements Store: the update is conditional on PENDING, so
// of two attempts completing one booking only one records it.
func (s *EntStore) RecordBooking(ctx context.Context, sellerID, id string, b carrier.Booking, first carrier.Event) (Shipment, error) {
	var out Shipment
	err := db.InTx(ctx, s.client, func(ctx context.Context) error {
		c := s.db(ctx)
		n, err := c.Shipment.Update().
			Where(shipment.ID(id), shipment.SellerID(sellerID), shipment.StatusEQ(shipment.StatusPENDING)).
			SetStatus(shipment.StatusBOOKED).SetTrackingNumber(b.TrackingNumber).
			SetTrackingCompany(b.TrackingCompany).SetRouteCode(b.RouteCode).SetBookedAt(b.BookedAt).
			Save(ctx)
		if err != nil {
			return fmt.Errorf("shipments: record booking: %w", err)
		}
		if n == 0 {
			if _, err := s.Get(ctx, sellerID, id); err != nil {
				return err
			}
			return ErrNotPending
		}
		if err := s.insertEvent(ctx, id, 1, first); err != nil {
			return err
		}
		out, err = s.Get(ctx, sellerID, id)
		return err
	})
	return out, err
}

// DeletePending implements Store.
func (s *EntStore) DeletePending(ctx context.Context, sellerID, id string) error {
	n, err := s.db(ctx).Shipment.Delete().
		Where(shipment.ID(id), shipment.SellerID(sellerID), shipment.StatusEQ(shipment.StatusPENDING)).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("shipments: delete pending: %w", err)
	}
	if n == 0 {
		if _, err := s.Get(ctx, sellerID, id); err != nil {
			return err
		}
		return ErrNotPending
	}
	return nil
}

// AppendEvent implements Store. The next sequence is read in the
// transaction and held by the unique (shipment_id, sequence) index: of two
// writers of one number, the second fails rather than both committing.
func (s *EntStore) AppendEvent(ctx context.Context, sellerID, id string, e carrier.Event) (Event, Shipment, error) {
	var (
		ev  Event
		out Shipment
	)
	err := db.InTx(ctx, s.client, func(ctx context.Context) error {
		sh, err := s.Get(ctx, sellerID, id)
		if err != nil {
			return err
		}
		switch {
		case sh.Status == Pending && e.Status != carrier.Cancelled:
			// Only a void may close a booking in doubt; the parcel's
			// steps follow the carrier's answer.
			return ErrNotPending
		case carrier.Status(sh.Status).Final():
			return ErrFinal
		}
		c := s.db(ctx)
		last, err := c.ShipmentTrackingEvent.Query().Where(shipmenttrackingevent.ShipmentID(id)).
			Order(ent.Desc(shipmenttrackingevent.FieldSequence)).First(ctx)
		seq := 1
		switch {
		case err == nil:
			seq = last.Sequence + 1
		case !ent.IsNotFound(err):
			return fmt.Errorf("shipments: last event: %w", err)
		}
		if err := s.insertEvent(ctx, id, seq, e); err != nil {
			return err
		}
		upd := c.Shipment.UpdateOneID(id).SetStatus(shipment.Status(e.Status))
		if e.Status == carrier.Cancelled {
			upd.SetCancelledAt(e.OccurredAt)
		}
		row, err := upd.Save(ctx)
		if err != nil {
			return fmt.Errorf("shipments: move to %s: %w", e.Status, err)
		}
		ev, out = Event{Sequence: seq, Event: e}, fromRow(row)
		return nil
	})
	return ev, out, err
}

func (s *EntStore) insertEvent(ctx context.Context, shipmentID string, seq int, e carrier.Event) error {
	if !e.Status.Valid() {
		return fmt.Errorf("shipments: unknown parcel status %q", e.Status)
	}
	err := s.db(ctx).ShipmentTrackingEvent.Create().
		SetID(ids.New(eventIDPrefix)).SetShipmentID(shipmentID).SetSequence(seq).
		SetStatus(shipmenttrackingevent.Status(e.Status)).SetCarrierStatus(e.CarrierStatus).
		SetDescription(e.Description).SetLocation(e.Location).SetOccurredAt(e.OccurredAt.UTC()).
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("shipments: event %d: %w", seq, err)
	}
	return nil
}

// Events implements Store.
func (s *EntStore) Events(ctx context.Context, sellerID, id string) ([]Event, error) {
	if _, err := s.Get(ctx, sellerID, id); err != nil {
		return nil, err
	}
	rows, err := s.db(ctx).ShipmentTrackingEvent.Query().
		Where(shipmenttrackingevent.ShipmentID(id)).
		Order(ent.Asc(shipmenttrackingevent.FieldSequence)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("shipments: events: %w", err)
	}
	out := make([]Event, 0, len(rows))
	for _, r := range rows {
		out = append(out, Event{Sequence: r.Sequence, Event: carrier.Event{
			Status: carrier.Status(r.Status), CarrierStatus: r.CarrierStatus, Description: r.Description,
			Location: r.Location, OccurredAt: r.OccurredAt.UTC(),
		}})
	}
	return out, nil
}

func one(row *ent.Shipment, err error, op string) (Shipment, error) {
	if ent.IsNotFound(err) {
		return Shipment{}, ErrNotFound
	}
	if err != nil {
		return Shipment{}, fmt.Errorf("shipments: %s: %w", op, err)
	}
	return fromRow(row), nil
}

func fromRow(r *ent.Shipment) Shipment {
	sh := Shipment{
		ID: r.ID, SellerID: r.SellerID, OrderID: r.OrderID, Status: Status(r.Status),
		Method: carrier.Method(r.Method), ChannelID: r.ChannelID, PickupDate: r.PickupDate,
		Window: carrier.Window{Start: r.WindowStart, End: r.WindowEnd}, AddressID: r.AddressID,
		Carrier: r.Carrier, Reference: r.Reference, TrackingNumber: r.TrackingNumber,
		TrackingCompany: r.TrackingCompany, RouteCode: r.RouteCode,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
	if r.BookedAt != nil {
		t := r.BookedAt.UTC()
		sh.BookedAt = &t
	}
	if r.CancelledAt != nil {
		t := r.CancelledAt.UTC()
		sh.CancelledAt = &t
	}
	return sh
}
