package simulated

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/mallplatform/partnerapi/services/shipping/carrier"
)

// trackingPrefix starts every tracking number of the platform's network.
const trackingPrefix = "MPX"

// trackingDigits is the length of the number's body, before its check digit.
const trackingDigits = 11

// TrackingNumber is the tracking number of a booking reference: "MPX",
// 11 digits taken from SHA-256 of the reference, and a Luhn check digit
// (15 characters in all), so a mistyped number is caught before it is
// looked up. It depends on the reference alone: the
// same booking gets the same number in every process, which is what makes
// the simulated courier book once across a crash of core.
func TrackingNumber(reference string) string {
	sum := sha256.Sum256([]byte(reference))
	n := binary.BigEndian.Uint64(sum[:8]) % 1e11
	body := fmt.Sprintf("%0*d", trackingDigits, n)
	return trackingPrefix + body + string(rune('0'+luhn(body)))
}

// ValidTrackingNumber reports whether s has the network's format and its
// check digit holds.
func ValidTrackingNumber(s string) bool {
	digits, ok := strings.CutPrefix(s, trackingPrefix)
	if !ok || len(digits) != trackingDigits+1 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return int(digits[trackingDigits]-'0') == luhn(digits[:trackingDigits])
}

// luhn is the check digit that makes body followed by it pass the Luhn test.
func luhn(body string) int {
	sum := 0
	for i := len(body) - 1; i >= 0; i-- {
		d := int(body[i] - '0')
		// The rightmost digit of body is doubled: the check digit follows it.
		if (len(body)-1-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// RouteCode is the sorting code printed on a label: origin region and
// destination region and province from their PSGC codes, e.g. "13-07.306"
// from Quezon City (Metro Manila) to Cebu City.
func RouteCode(fromPSGC, toPSGC string) string {
	if len(fromPSGC) < 2 || len(toPSGC) < 5 {
		return ""
	}
	return fromPSGC[:2] + "-" + toPSGC[:2] + "." + toPSGC[2:5]
}

// words are the network's own status texts, kept in carrierStatus.
var words = map[carrier.Status]string{
	carrier.Booked:            "Shipment booked",
	carrier.PickedUp:          "Picked up by rider",
	carrier.InTransit:         "In transit to hub",
	carrier.OutForDelivery:    "Out for delivery",
	carrier.DeliveryAttempted: "Delivery attempted, recipient unavailable",
	carrier.Delivered:         "Delivered",
	carrier.ReturnedToSender:  "Returned to sender",
	carrier.Lost:              "Parcel declared lost",
	carrier.Cancelled:         "Booking cancelled",
}

// WordsFor is the network's own words for a status ("" for none).
func WordsFor(s carrier.Status) string { return words[s] }
