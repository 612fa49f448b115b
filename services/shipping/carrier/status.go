package carrier

// Status is the normalised step of a parcel: every courier's own words map
// to one of these, and partners read only these in `status` (the courier's
// words stay in `carrierStatus`).
type Status string

const (
	Booked            Status = "BOOKED"
	PickedUp          Status = "PICKED_UP"
	InTransit         Status = "IN_TRANSIT"
	OutForDelivery    Status = "OUT_FOR_DELIVERY"
	DeliveryAttempted Status = "DELIVERY_ATTEMPTED"
	Delivered         Status = "DELIVERED"
	ReturnedToSender  Status = "RETURNED_TO_SENDER"
	Lost              Status = "LOST"
	Cancelled         Status = "CANCELLED"
)

// Statuses lists every status in the order a parcel usually passes them.
func Statuses() []Status {
	return []Status{Booked, PickedUp, InTransit, OutForDelivery, DeliveryAttempted, Delivered,
		ReturnedToSender, Lost, Cancelled}
}

// Valid reports whether s is one of Statuses.
func (s Status) Valid() bool {
	for _, v := range Statuses() {
		if s == v {
			return true
		}
	}
	return false
}

// Final reports whether nothing follows s: the parcel arrived, came back,
// was lost or its booking was voided.
func (s Status) Final() bool {
	switch s {
	case Delivered, ReturnedToSender, Lost, Cancelled:
		return true
	}
	return false
}
