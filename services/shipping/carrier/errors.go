package carrier

import (
	"errors"
	"fmt"
)

// Reason is why a courier refused a call, machine-readable: partners branch
// on it (the `reason` of a SHIP_FAILED answer).
type Reason string

const (
	// AddressUnserviceable: the courier does not reach the address.
	AddressUnserviceable Reason = "ADDRESS_UNSERVICEABLE"
	// Overweight: heavier than the channel carries.
	Overweight Reason = "OVERWEIGHT"
	// Oversize: a side longer than the channel carries.
	Oversize Reason = "OVERSIZE"
	// InvalidPostalCode: the postal code is malformed or does not belong
	// to the address's city.
	InvalidPostalCode Reason = "INVALID_POSTAL_CODE"
	// CapacityFull: no pickup capacity left that day; another attempt
	// later (or another date) may pass.
	CapacityFull Reason = "CAPACITY_FULL"
	// AlreadyInTransit: a void came after the courier collected the parcel.
	AlreadyInTransit Reason = "ALREADY_IN_TRANSIT"
	// Rejected: the courier refused for a reason it did not classify.
	Rejected Reason = "REJECTED"
)

// Refusal is a courier's considered "no": the call reached it and it
// declined. Nothing was booked (or voided). Retryable says whether the same
// request may pass later unchanged; a refusal of the parcel or address
// itself is not.
type Refusal struct {
	Reason    Reason
	Retryable bool
	// Message is safe to show a partner: it names the parcel's problem,
	// never the courier's internals.
	Message string
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("carrier refused (%s): %s", r.Reason, r.Message)
}

// Refuse returns a Refusal whose retryability is the reason's usual one.
func Refuse(reason Reason, message string) *Refusal {
	return &Refusal{Reason: reason, Retryable: reason == CapacityFull, Message: message}
}

var (
	// ErrUnreachable: the courier could not be asked (connection refused,
	// 5xx, maintenance). Whether it acted is unknown only for Book, whose
	// retry with the same reference settles it.
	ErrUnreachable = errors.New("carrier unreachable")
	// ErrTimeout: the courier did not answer within the call's deadline.
	ErrTimeout = errors.New("carrier timed out")
	// ErrNotFound: the courier knows no such reference or tracking number.
	ErrNotFound = errors.New("carrier: not found")
)

// AsRefusal returns the Refusal in err's chain, if any.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}
