package returns

import (
	"fmt"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// DisputeReason is one of the spec's six DisputeReasonCode entries. CodeID
// is a stable string partners may store: it never changes and is never
// reused, even if a label or description is reworded.
type DisputeReason struct {
	CodeID      string
	Code        string
	Label       string
	Description string
	// Evidence is what the platform expects in the dispute's evidence
	// (documented in docs/decisions.md; not enforced beyond 1 to 9 https
	// links, since only a person can judge a photo).
	Evidence string
	// From is the statuses a dispute with this reason may be raised from.
	From []Status
}

// DisputeReasons are the six codes, in the spec's order.
var DisputeReasons = []DisputeReason{
	{
		CodeID: "DR001", Code: "did_not_receive_return_parcel", Label: "Return parcel not received",
		Description: "The buyer reports the parcel shipped, but it never reached the seller.",
		Evidence:    "The carrier's tracking history, or the seller's receiving log for the days since the buyer shipped.",
		From:        []Status{BuyerShipped},
	},
	{
		CodeID: "DR002", Code: "received_physical_damage", Label: "Item received damaged",
		Description: "The returned item arrived physically damaged beyond its condition when it was sold.",
		Evidence:    "Photos of the damage and of the parcel as it arrived, before unpacking where possible.",
		From:        []Status{BuyerShipped, Received},
	},
	{
		CodeID: "DR003", Code: "received_incomplete", Label: "Item received incomplete",
		Description: "The returned item arrived with parts, accessories, packaging or free gifts missing.",
		Evidence:    "Photos of the parcel's full contents, and the listing or packing list showing what was sold.",
		From:        []Status{BuyerShipped, Received},
	},
	{
		CodeID: "DR004", Code: "received_wrong_product", Label: "Wrong item received",
		Description: "The parcel held a different product from the one that was sold.",
		Evidence:    "Photos of the item received with its labels or serial numbers, beside the listing of the item sold.",
		From:        []Status{BuyerShipped, Received},
	},
	{
		CodeID: "DR005", Code: "received_used_product", Label: "Item received used",
		Description: "The returned item shows use, wear or washing after it was delivered.",
		Evidence:    "Photos of the signs of use (tags removed, wear, stains) and of the item's condition at dispatch.",
		From:        []Status{BuyerShipped, Received},
	},
	{
		CodeID: "DR006", Code: "buyer_claim_incorrect", Label: "Buyer's claim is incorrect",
		Description: "The reason the buyer gave for the return is not true of the item sold.",
		Evidence:    "Photos or documents that contradict the buyer's reason: the listing, dispatch photos, test results.",
		From:        []Status{BuyerShipped, Received},
	},
}

// Reason returns the dispute reason with the given code.
func Reason(code string) (DisputeReason, bool) {
	for _, r := range DisputeReasons {
		if r.Code == code {
			return r, true
		}
	}
	return DisputeReason{}, false
}

// CheckDisputeReason is the refusal of a dispute with reason code on s, nil
// when the reason is one of the six and fits the return's status. An
// unknown code is a VALIDATION_ERROR; a reason that does not fit the status
// (a parcel that was received cannot have been not received) is
// INVALID_TRANSITION naming the status. The move itself is checked by Check.
func CheckDisputeReason(s State, code string) error {
	r, ok := Reason(code)
	if !ok {
		return apierr.New(apierr.ValidationError, "reasonCode: must be one of the dispute reason codes (GET /open/v1/returns/dispute-reasons)")
	}
	if _, legal := legal[s.Status][Dispute]; !legal {
		// The move's own refusal says more (processed, late, illegal).
		return nil
	}
	for _, from := range r.From {
		if s.Status == from {
			return nil
		}
	}
	return apierr.New(apierr.InvalidTransition, fmt.Sprintf("reason %s does not apply to a return that is %s", code, s.Status))
}
