package schema

import (
	"regexp"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

var (
	// hhmm is a time of day in Asia/Manila, or empty.
	hhmm = regexp.MustCompile(`^(([01][0-9]|2[0-3]):[0-5][0-9])?$`)
	// isoDateOrEmpty is YYYY-MM-DD, or empty.
	isoDateOrEmpty = regexp.MustCompile(`^([0-9]{4}-[0-9]{2}-[0-9]{2})?$`)
)

// parcelStatuses is the normalised step of a parcel (services/shipping/carrier
// Status), shared by a shipment and its tracking events.
var parcelStatuses = []string{
	"BOOKED", "PICKED_UP", "IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERY_ATTEMPTED",
	"DELIVERED", "RETURNED_TO_SENDER", "LOST", "CANCELLED",
}

// Shipment is an order's booking with a carrier. The row is written PENDING
// with its carrier reference before the carrier is called and becomes
// BOOKED, with the tracking number, in a second transaction once the
// carrier answered (services/shipping/shipments, Book): a PENDING row is a
// booking in doubt that the next attempt completes with the same
// reference. Its status then follows the parcel's tracking events.
type Shipment struct {
	ent.Schema
}

// Mixin makes a shipment seller-owned (SellerOwned).
func (Shipment) Mixin() []ent.Mixin {
	return []ent.Mixin{SellerOwned{Ref: "shipments"}}
}

func (Shipment) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		// The order the parcel carries; no foreign key, so shipping keeps
		// out of the orders tables (orders move only through their own
		// service's steps).
		field.String("order_id").NotEmpty().Immutable(),
		field.Enum("status").Values(append([]string{"PENDING"}, parcelStatuses...)...).Default("PENDING"),
		field.Enum("method").Values("PICKUP", "DROPOFF").Immutable(),
		field.String("channel_id").NotEmpty().MaxLen(64).Immutable(),
		// YYYY-MM-DD in Asia/Manila; empty for a drop-off.
		field.String("pickup_date").Default("").Match(isoDateOrEmpty).Immutable(),
		// The pickup time window, HH:mm Asia/Manila; empty for a drop-off.
		field.String("window_start").Default("").Match(hhmm).Immutable(),
		field.String("window_end").Default("").Match(hhmm).Immutable(),
		// The seller's pickup address the parcel leaves from.
		field.String("address_id").NotEmpty().Immutable(),
		// Which Carrier implementation booked it ("simulated" for the
		// platform's network): a courier's tracking push is matched on it.
		field.String("carrier").NotEmpty().MaxLen(32).Immutable(),
		// The carrier's idempotency key, carrier.Reference(id).
		field.String("reference").NotEmpty().MaxLen(64).Immutable(),
		field.String("tracking_number").Default("").MaxLen(64),
		field.String("tracking_company").Default("").MaxLen(120),
		field.String("route_code").Default("").MaxLen(32),
		field.Time("booked_at").Optional().Nillable(),
		field.Time("cancelled_at").Optional().Nillable(),
		createdAt(),
		updatedAt(),
	}
}

func (Shipment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("tracking_events", ShipmentTrackingEvent.Type).
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Shipment) Indexes() []ent.Index {
	return []ent.Index{
		// A seller's shipments, oldest first.
		index.Fields("seller_id", "created_at", "id"),
		// One live booking per order, held by the database: of two
		// bookings racing on one order only one can commit. Cancelled
		// bookings stay as history beside the next one.
		index.Fields("order_id").
			Unique().
			Annotations(entsql.IndexWhere("status <> 'CANCELLED'")).
			StorageKey("shipment_one_active_per_order"),
		index.Fields("reference").Unique(),
		// A courier's tracking push names its tracking number.
		index.Fields("carrier", "tracking_number"),
	}
}

// ShipmentTrackingEvent is one step of a shipment's parcel, numbered from
// 1 in the order the platform recorded it; the carrier's own words stay in
// carrier_status.
type ShipmentTrackingEvent struct {
	ent.Schema
}

func (ShipmentTrackingEvent) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("shipment_id").NotEmpty().Immutable(),
		field.Int("sequence").Positive().Immutable(),
		field.Enum("status").Values(parcelStatuses...).Immutable(),
		field.String("carrier_status").Default("").MaxLen(200).Immutable(),
		field.String("description").Default("").MaxLen(500).Immutable(),
		field.String("location").Default("").MaxLen(200).Immutable(),
		// When the carrier says the step happened.
		field.Time("occurred_at").Immutable(),
		createdAt(),
	}
}

func (ShipmentTrackingEvent) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shipment", Shipment.Type).
			Ref("tracking_events").
			Field("shipment_id").
			Unique().
			Required().
			Immutable(),
	}
}

func (ShipmentTrackingEvent) Indexes() []ent.Index {
	return []ent.Index{
		// Numbering is per shipment and gapless; two writers of the same
		// number cannot both commit.
		index.Fields("shipment_id", "sequence").Unique(),
	}
}
