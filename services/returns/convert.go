package returns

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	returnsv1 "github.com/mallplatform/partnerapi/gen/mp/returns/v1"
)

var statusToProto = map[Status]returnsv1.ReturnStatus{
	Requested:    returnsv1.ReturnStatus_RETURN_STATUS_REQUESTED,
	Approved:     returnsv1.ReturnStatus_RETURN_STATUS_APPROVED,
	Rejected:     returnsv1.ReturnStatus_RETURN_STATUS_REJECTED,
	BuyerShipped: returnsv1.ReturnStatus_RETURN_STATUS_BUYER_SHIPPED,
	Received:     returnsv1.ReturnStatus_RETURN_STATUS_RECEIVED,
	Disputed:     returnsv1.ReturnStatus_RETURN_STATUS_DISPUTED,
	Refunded:     returnsv1.ReturnStatus_RETURN_STATUS_REFUNDED,
	Closed:       returnsv1.ReturnStatus_RETURN_STATUS_CLOSED,
	Cancelled:    returnsv1.ReturnStatus_RETURN_STATUS_CANCELLED,
}

// StatusFromProto is the status a request names; false for UNSPECIFIED.
func StatusFromProto(p returnsv1.ReturnStatus) (Status, bool) {
	for s, v := range statusToProto {
		if v == p {
			return s, true
		}
	}
	return "", false
}

// ReturnToProto is a return as partners read it, and as its webhook events
// carry it: deadlines and next actions' deadlines in +08:00.
func ReturnToProto(v *View) *returnsv1.Return {
	r := v.Return
	p := &returnsv1.Return{
		ReturnId: r.ID, OrderId: r.OrderID, SellerId: r.SellerID, Status: statusToProto[r.Status],
		Reason: r.Reason, BuyerNote: r.BuyerNote, Evidence: nonNil(r.Evidence),
		Items:        make([]*returnsv1.ReturnItem, len(r.Items)),
		RefundAmount: r.RefundAmount, RefundedAmount: r.RefundedAmount, Currency: r.Currency, RefundOnly: r.RefundOnly,
		Deadlines: &returnsv1.ReturnDeadlines{
			SellerResponseBy: renderPtr(r.Deadlines.SellerResponseBy), BuyerShipBy: renderPtr(r.Deadlines.BuyerShipBy),
			InspectBy: renderPtr(r.Deadlines.InspectBy), DisputeBy: renderPtr(r.Deadlines.DisputeBy),
		},
		NextActions: make([]*returnsv1.NextAction, len(v.NextActions)),
		Refunds:     make([]*returnsv1.Refund, len(v.Refunds)),
		CreatedAt:   timestamppb.New(r.CreatedAt), UpdatedAt: timestamppb.New(r.UpdatedAt),
	}
	for i, it := range r.Items {
		p.Items[i] = &returnsv1.ReturnItem{ItemId: it.ItemID, Quantity: it.Quantity, RefundAmount: it.RefundAmount}
	}
	for i, a := range v.NextActions {
		p.NextActions[i] = &returnsv1.NextAction{Action: string(a.Action), Deadline: renderPtr(a.Deadline)}
	}
	for i, f := range v.Refunds {
		p.Refunds[i] = &returnsv1.Refund{RefundId: f.ID, Amount: f.Amount, Full: f.Full(), CreatedAt: timestamppb.New(f.CreatedAt)}
	}
	if r.ReturnTrackingNumber != "" {
		p.ReturnTrackingNumber = &r.ReturnTrackingNumber
	}
	if r.Status == Rejected || r.RejectReason != "" {
		p.RejectReason, p.RejectNote = &r.RejectReason, &r.RejectNote
	}
	if d := r.Dispute; d != nil {
		pd := &returnsv1.ReturnDispute{DisputeId: d.ID, RaisedBy: d.RaisedBy, Description: d.Description,
			Evidence: nonNil(d.Evidence), CreatedAt: timestamppb.New(d.CreatedAt)}
		if d.ReasonCode != "" {
			pd.ReasonCode = &d.ReasonCode
		}
		if d.Outcome != "" {
			pd.Outcome = &d.Outcome
		}
		if d.DecidedAt != nil {
			pd.DecidedAt = timestamppb.New(*d.DecidedAt)
		}
		p.Dispute = pd
	}
	return p
}

// DisputeReasonToProto is a dispute reason in the spec's strict shape.
func DisputeReasonToProto(r DisputeReason) *returnsv1.DisputeReasonCode {
	return &returnsv1.DisputeReasonCode{CodeId: r.CodeID, Code: r.Code, Label: r.Label, Description: r.Description}
}

func renderPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := render(*t)
	return &s
}
