package cancellation

import (
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	cancellationsv1 "github.com/mallplatform/partnerapi/gen/mp/cancellations/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
)

var statusToProto = map[Status]ordersv1.CancellationRequestStatus{
	Pending:      ordersv1.CancellationRequestStatus_CANCELLATION_REQUEST_STATUS_PENDING,
	Approved:     ordersv1.CancellationRequestStatus_CANCELLATION_REQUEST_STATUS_APPROVED,
	Rejected:     ordersv1.CancellationRequestStatus_CANCELLATION_REQUEST_STATUS_REJECTED,
	AutoApproved: ordersv1.CancellationRequestStatus_CANCELLATION_REQUEST_STATUS_AUTO_APPROVED,
}

// StatusFromProto is the status of a proto status ("" for UNSPECIFIED).
func StatusFromProto(p ordersv1.CancellationRequestStatus) Status {
	for s, v := range statusToProto {
		if v == p {
			return s
		}
	}
	return ""
}

// ToProto renders a request as its routes and events show it (no buyer's
// personal data: the request carries none).
func ToProto(r *Request) *cancellationsv1.CancellationRequest {
	out := &cancellationsv1.CancellationRequest{Id: r.ID, OrderId: r.OrderID, Status: statusToProto[r.Status], Reason: r.Reason,
		RequestedAt: ts(r.RequestedAt), RespondBy: ts(r.RespondBy), CreatedAt: ts(r.CreatedAt), UpdatedAt: ts(r.UpdatedAt)}
	if r.RejectReason != "" {
		reason := r.RejectReason
		out.RejectReason = &reason
	}
	if r.DecidedAt != nil {
		out.DecidedAt = ts(*r.DecidedAt)
	}
	return out
}

func ts(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }
