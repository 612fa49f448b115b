package label

import (
	"time"
)

// fixedTime is the creation date of every golden document.
var fixedTime = time.Date(2026, 11, 26, 9, 30, 0, 0, time.UTC)

// sample is a label with every field set, Filipino names with ñ among them.
func sample() Label {
	shipBy := time.Date(2026, 11, 28, 15, 59, 59, 0, time.UTC) // 23:59:59 in Manila
	return Label{
		TrackingNumber:  "MPX2611260001PH",
		TrackingCompany: "Marketplace Logistics",
		RouteCode:       "NCR-LPS-03",
		OrderID:         "ord_01JD4M7Q8Y2F9K3N5P6R7S8T9V",
		Sender: Party{
			Name: "Tindahan ni Aling Nena", Phone: "+63 917 555 0101",
			Line1: "12 Dasmariñas Street", Line2: "Barangay San Nicolas",
			City: "City of Dasmariñas", Province: "Cavite", Region: "Region IV-A (CALABARZON)", PostalCode: "4114",
		},
		Recipient: Party{
			Name: "Juan dela Cruz Peñaflor", Phone: "+63 918 555 0199",
			Line1: "Unit 4B, 88 Alabang–Zapote Road", Line2: "Barangay Almanza Uno",
			City: "City of Las Piñas", Region: "National Capital Region (NCR)", PostalCode: "1750",
		},
		ShipBy:    &shipBy,
		CODAmount: 123450,
	}
}
