package main

import (
	"strconv"
	"time"

	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// orderRow is one order as the baseline reads it: the columns of the
// statement the platform's order store runs, nothing converted yet.
type orderRow struct {
	ID                      string
	SellerID                string
	CustomerID              string
	BuyerEmail              string
	Status                  string
	Currency                string
	Subtotal                int64
	Total                   int64
	Tax                     int64
	Shipping                int64
	Discount                int64
	PaymentStatus           string
	FulfillmentStatus       string
	ShippingAddress         dbtypes.Address
	BillingAddress          dbtypes.Address
	ShipByDate              *time.Time
	ShippedAt               *time.Time
	ShippingChannel         *string
	BookingStatus           *string
	CancellationRequestedAt *time.Time
	CreatedAt               time.Time
	UpdatedAt               time.Time
	Items                   []itemRow
	Fulfillments            []fulfillmentRow
}

// itemRow and fulfillmentRow decode the JSON the order statement aggregates.
type itemRow struct {
	ID         string  `json:"id"`
	OrderID    string  `json:"-"`
	ProductID  string  `json:"product_id"`
	VariantID  *string `json:"variant_id"`
	Title      string  `json:"title"`
	SKU        string  `json:"sku"`
	Quantity   int64   `json:"quantity"`
	UnitPrice  int64   `json:"unit_price"`
	TotalPrice int64   `json:"total_price"`
	Thumbnail  *string `json:"thumbnail"`
}

type fulfillmentRow struct {
	ID              string                    `json:"id"`
	OrderID         string                    `json:"-"`
	Status          string                    `json:"status"`
	TrackingNumber  string                    `json:"tracking_number"`
	TrackingCompany string                    `json:"tracking_company"`
	Items           []dbtypes.FulfillmentItem `json:"items"`
	CreatedAt       time.Time                 `json:"created_at"`
	UpdatedAt       time.Time                 `json:"updated_at"`
}

// The wire spellings below are those of the proto enums' wire_name options.
// A stored value outside them renders as null, as the platform's codec does
// for an enum number without a wire name.

// partnerStatus folds the two checkout states into READY_TO_SHIP, the
// partner view of an order that has not left the seller yet.
func partnerStatus(stored string) (wire string, preShipment, ok bool) {
	switch stored {
	case "PENDING", "PAID", "READY_TO_SHIP":
		return "READY_TO_SHIP", true, true
	case "SHIPPED", "DELIVERED", "CANCELLED", "RETURN_REFUND":
		return stored, false, true
	}
	return "", false, false
}

func knownFulfillmentStatus(s string) bool {
	switch s {
	case "pending", "shipped", "delivered", "cancelled":
		return true
	}
	return false
}

func knownBookingStatus(s string) bool {
	return s == "PENDING_ARRANGE" || s == "READY_FOR_HANDOVER"
}

// appendOrderEnvelope writes {"success":true,"data":{order}} exactly as the
// gateway renders GetOrder's answer: the proto field order, the json_name
// keys, int64 as numbers, timestamps in UTC with milliseconds, and the
// presence rules of the order view (buyerEmail only for apps holding
// customer:email:read, slaBreached only with a deadline, bookingStatus only
// before shipment, shippingChannel only when assigned, shipByDate null when
// there is none). now decides slaBreached, as the clock does in core.
func appendOrderEnvelope(b []byte, o *orderRow, now time.Time, showEmail bool) []byte {
	b = append(b, `{"success":true,"data":`...)
	b = appendOrder(b, o, now, showEmail)
	return append(b, '}')
}

func appendOrder(b []byte, o *orderRow, now time.Time, showEmail bool) []byte {
	status, preShipment, known := partnerStatus(o.Status)
	b = append(b, `{"id":`...)
	b = wirejson.AppendString(b, o.ID)
	b = append(b, `,"status":`...)
	b = appendEnum(b, status, known)
	b = appendKeyString(b, `,"sellerId":`, o.SellerID)
	b = appendKeyString(b, `,"customerId":`, o.CustomerID)
	if showEmail && o.BuyerEmail != "" {
		b = appendKeyString(b, `,"buyerEmail":`, o.BuyerEmail)
	}
	b = appendKeyString(b, `,"currency":`, o.Currency)
	b = appendKeyInt(b, `,"subtotal":`, o.Subtotal)
	b = appendKeyInt(b, `,"total":`, o.Total)
	b = appendKeyInt(b, `,"tax":`, o.Tax)
	b = appendKeyInt(b, `,"shipping":`, o.Shipping)
	b = appendKeyInt(b, `,"discount":`, o.Discount)
	b = appendKeyString(b, `,"paymentStatus":`, o.PaymentStatus)
	b = appendKeyString(b, `,"fulfillmentStatus":`, o.FulfillmentStatus)
	b = appendKeyTime(b, `,"created_at":`, o.CreatedAt)
	b = appendKeyTime(b, `,"updated_at":`, o.UpdatedAt)

	b = append(b, `,"items":[`...)
	for i := range o.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendItem(b, o.ID, &o.Items[i])
	}
	b = append(b, `],"fulfillments":[`...)
	for i := range o.Fulfillments {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFulfillment(b, o.ID, &o.Fulfillments[i])
	}
	b = append(b, `],"shippingAddress":`...)
	b = appendAddress(b, &o.ShippingAddress)
	b = append(b, `,"billingAddress":`...)
	b = appendAddress(b, &o.BillingAddress)

	b = append(b, `,"shipByDate":`...)
	if o.ShipByDate == nil {
		b = append(b, "null"...)
	} else {
		b = wirejson.AppendTime(b, *o.ShipByDate)
		// Once the order has left the seller the deadline is history.
		b = append(b, `,"slaBreached":`...)
		b = strconv.AppendBool(b, preShipment && now.After(*o.ShipByDate))
	}
	if o.ShippingChannel != nil && *o.ShippingChannel != "" {
		b = appendKeyString(b, `,"shippingChannel":`, *o.ShippingChannel)
	}
	if preShipment && o.BookingStatus != nil {
		b = append(b, `,"bookingStatus":`...)
		b = appendEnum(b, *o.BookingStatus, knownBookingStatus(*o.BookingStatus))
	}
	return append(b, '}')
}

func appendItem(b []byte, orderID string, it *itemRow) []byte {
	b = append(b, `{"id":`...)
	b = wirejson.AppendString(b, it.ID)
	b = appendKeyString(b, `,"orderId":`, orderID)
	b = appendKeyString(b, `,"productId":`, it.ProductID)
	if it.VariantID != nil {
		b = appendKeyString(b, `,"variantId":`, *it.VariantID)
	}
	b = appendKeyString(b, `,"title":`, it.Title)
	b = appendKeyString(b, `,"sku":`, it.SKU)
	b = appendKeyInt(b, `,"quantity":`, it.Quantity)
	b = appendKeyInt(b, `,"unitPrice":`, it.UnitPrice)
	b = appendKeyInt(b, `,"totalPrice":`, it.TotalPrice)
	if it.Thumbnail != nil {
		b = appendKeyString(b, `,"thumbnail":`, *it.Thumbnail)
	}
	return append(b, '}')
}

func appendFulfillment(b []byte, orderID string, f *fulfillmentRow) []byte {
	b = append(b, `{"id":`...)
	b = wirejson.AppendString(b, f.ID)
	b = append(b, `,"status":`...)
	b = appendEnum(b, f.Status, knownFulfillmentStatus(f.Status))
	b = appendKeyString(b, `,"orderId":`, orderID)
	b = appendKeyString(b, `,"trackingNumber":`, f.TrackingNumber)
	b = appendKeyString(b, `,"trackingCompany":`, f.TrackingCompany)
	b = appendKeyTime(b, `,"created_at":`, f.CreatedAt)
	b = appendKeyTime(b, `,"updated_at":`, f.UpdatedAt)
	b = append(b, `,"items":[`...)
	for i, it := range f.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKeyString(b, `{"itemId":`, it.ItemID)
		b = appendKeyInt(b, `,"quantity":`, int64(it.Quantity))
		b = append(b, '}')
	}
	b = appendKeyString(b, `],"metadata":{"tracking_number":`, f.TrackingNumber)
	b = appendKeyString(b, `,"tracking_company":`, f.TrackingCompany)
	return append(b, "}}"...)
}

func appendAddress(b []byte, a *dbtypes.Address) []byte {
	b = appendKeyString(b, `{"name":`, a.Name)
	b = appendKeyString(b, `,"line1":`, a.Line1)
	if a.Line2 != nil {
		b = appendKeyString(b, `,"line2":`, *a.Line2)
	}
	b = appendKeyString(b, `,"city":`, a.City)
	b = appendKeyString(b, `,"province":`, a.Province)
	b = appendKeyString(b, `,"postalCode":`, a.PostalCode)
	b = appendKeyString(b, `,"country":`, a.Country)
	b = appendKeyString(b, `,"phone":`, a.Phone)
	return append(b, '}')
}

func appendEnum(b []byte, wire string, known bool) []byte {
	if !known {
		return append(b, "null"...)
	}
	return wirejson.AppendString(b, wire)
}

func appendKeyString(b []byte, key, v string) []byte {
	return wirejson.AppendString(append(b, key...), v)
}

func appendKeyInt(b []byte, key string, v int64) []byte {
	return strconv.AppendInt(append(b, key...), v, 10)
}

func appendKeyTime(b []byte, key string, t time.Time) []byte {
	return wirejson.AppendTime(append(b, key...), t)
}
