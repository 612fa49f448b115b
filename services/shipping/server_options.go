package shipping

import (
	"context"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// ListShippingOptions implements shippingv1.ShippingServiceServer. The
// interceptors have refused malformed numbers and booleans (the request's
// rules); places are resolved by Options.
func (s *Server) ListShippingOptions(ctx context.Context, req *shippingv1.ListShippingOptionsRequest) (*shippingv1.ListShippingOptionsResponse, error) {
	opts, err := s.svc.Options(ctx, OptionsQuery{
		Origin:      Place{Region: req.GetOriginRegion(), Province: req.GetOriginProvince(), City: req.GetOriginCity()},
		Destination: Place{Region: req.GetDestinationRegion(), Province: req.GetDestinationProvince(), City: req.GetDestinationCity()},
		WeightGrams: req.GetActualWeight(), LengthCm: req.GetLength(), WidthCm: req.GetWidth(), HeightCm: req.GetHeight(),
		Insurance: req.GetInsuranceEnabled(), OrderAmount: req.OrderAmount,
	})
	if err != nil {
		return nil, err
	}
	out := &shippingv1.ListShippingOptionsResponse{Data: make([]*shippingv1.ShippingOption, len(opts))}
	for i := range opts {
		out.Data[i] = optionToProto(&opts[i])
	}
	return out, nil
}

var rateReasonToProto = map[channels.Reason]shippingv1.ShippingRateUnavailableReason{
	channels.ReasonMissingOrigin:      shippingv1.ShippingRateUnavailableReason_SHIPPING_RATE_UNAVAILABLE_REASON_MISSING_ORIGIN,
	channels.ReasonMissingDestination: shippingv1.ShippingRateUnavailableReason_SHIPPING_RATE_UNAVAILABLE_REASON_MISSING_DESTINATION,
	channels.ReasonRouteNotServiced:   shippingv1.ShippingRateUnavailableReason_SHIPPING_RATE_UNAVAILABLE_REASON_ROUTE_NOT_SERVICED,
	channels.ReasonMissingWeight:      shippingv1.ShippingRateUnavailableReason_SHIPPING_RATE_UNAVAILABLE_REASON_MISSING_WEIGHT,
	channels.ReasonOverweight:         shippingv1.ShippingRateUnavailableReason_SHIPPING_RATE_UNAVAILABLE_REASON_OVERWEIGHT,
	channels.ReasonOversize:           shippingv1.ShippingRateUnavailableReason_SHIPPING_RATE_UNAVAILABLE_REASON_OVERSIZE,
}

func optionToProto(o *channels.Option) *shippingv1.ShippingOption {
	p := &shippingv1.ShippingOption{Id: o.ID, Name: o.Name, Provider: o.Provider, Currency: o.Currency,
		EstimatedDays: o.EstimatedDays, Description: o.Description}
	if o.Status == channels.RateQuoted {
		p.RateStatus = shippingv1.ShippingRateStatus_SHIPPING_RATE_STATUS_QUOTED
		price := o.PriceAmount
		p.PriceAmount = &price
		return p
	}
	p.RateStatus = shippingv1.ShippingRateStatus_SHIPPING_RATE_STATUS_UNAVAILABLE
	reason := rateReasonToProto[o.Reason]
	p.RateUnavailableReason = &reason
	return p
}
