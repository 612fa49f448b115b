package shipping

import (
	"context"
	"errors"

	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/psgc"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// Place is a location as a query names it: up to three fields, each a PSGC
// code or a name (psgc.Resolve reads them).
type Place struct {
	Region, Province, City string
}

// OptionsQuery is a shipping-options request: the two places as written,
// the parcel's figures (zero when not given) and insurance.
type OptionsQuery struct {
	Origin, Destination                      Place
	WeightGrams, LengthCm, WidthCm, HeightCm float64
	Insurance                                bool
	OrderAmount                              *int64
}

// Options quotes q on every active channel, in the quote engine's order.
// A place the query names but PSGC does not (or that contradicts itself)
// is VALIDATION_ERROR naming the field. Without an origin, the verified
// seller's default pickup address stands in; with no seller, or a seller
// without one, the options say MISSING_ORIGIN. The tables come from
// memory (Service.Channels); the default address is the one read a
// request may add, and only when it names no origin.
func (s *Service) Options(ctx context.Context, q OptionsQuery) ([]channels.Option, error) {
	r := channels.Request{WeightGrams: q.WeightGrams, LengthCm: q.LengthCm, WidthCm: q.WidthCm, HeightCm: q.HeightCm,
		Insurance: q.Insurance, OrderAmount: q.OrderAmount}
	var err error
	if r.Origin, err = resolvePlace("origin_", q.Origin); err != nil {
		return nil, err
	}
	if r.Destination, err = resolvePlace("destination_", q.Destination); err != nil {
		return nil, err
	}
	if r.Origin == nil {
		if r.Origin, err = s.defaultOrigin(ctx); err != nil {
			return nil, err
		}
	}
	t, err := s.Channels(ctx)
	if err != nil {
		return nil, err
	}
	return channels.Quote(t, r), nil
}

// resolvePlace is the place p names, nil when it names none.
func resolvePlace(prefix string, p Place) (*psgc.Location, error) {
	loc, ok, err := psgc.Resolve(prefix, p.Region, p.Province, p.City)
	if fe, isField := errors.AsType[*psgc.FieldError](err); isField {
		return nil, apierr.New(apierr.ValidationError, fe.Field+": "+fe.Message)
	}
	if err != nil || !ok {
		return nil, err
	}
	return &loc, nil
}

// defaultOrigin is the location of the verified seller's default pickup
// address; nil when the call acts for no seller or the seller has none
// (the quote then says MISSING_ORIGIN).
func (s *Service) defaultOrigin(ctx context.Context) (*psgc.Location, error) {
	seller, ok := principal.Seller(ctx)
	if !ok || s.sellers == nil {
		return nil, nil
	}
	a, err := s.defaultPickupAddress(ctx, seller)
	if errors.Is(err, sellers.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return locationOf(a), nil
}

// defaultPickupAddress reads the seller's default pickup address from the
// sellers domain, within the service's store deadline: the quote's origin
// and the place a pickup plan follows.
func (s *Service) defaultPickupAddress(ctx context.Context, seller string) (sellers.PickupAddress, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	return s.sellers.DefaultPickupAddress(ctx, seller)
}

// locationOf is where a pickup address is, for a quote; nil when its city
// code is unknown (addresses are written with a known code, so a code a
// later PSGC release dropped leaves the origin to be named).
func locationOf(a sellers.PickupAddress) *psgc.Location {
	c, known := psgc.CityByCode(a.PSGCCode)
	if !known {
		return nil
	}
	loc := psgc.LocationOf(&c)
	return &loc
}
