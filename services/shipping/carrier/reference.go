package carrier

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// referencePrefix marks the platform's booking references in a courier's
// systems (and in support conversations).
const referencePrefix = "MPS-"

// Reference is the courier idempotency key of a shipment: "MPS-" and the
// first 20 hex digits of SHA-256 of the shipment id. It depends on the
// shipment id alone, so it is the same on every attempt: the shipment row
// (and with it the reference) is committed before the courier is called,
// and a booking retried after a crash, a timeout or a lost answer reads the
// row back and sends the same reference, which the courier answers with the
// first booking instead of a second parcel. A hash rather than the id itself
// keeps the platform's ids out of couriers' systems and fits the 24
// characters most courier APIs allow for a merchant reference.
func Reference(shipmentID string) string {
	sum := sha256.Sum256([]byte(shipmentID))
	return referencePrefix + strings.ToUpper(hex.EncodeToString(sum[:10]))
}
