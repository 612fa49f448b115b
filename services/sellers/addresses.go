package sellers

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/psgc"
)

// addressPrefix starts every pickup address id ("pad_…").
const addressPrefix = "pad"

// ValidAddressID reports whether id could be a pickup address id; anything
// else names no address and is answered without a query.
func ValidAddressID(id string) bool { return ids.Valid(addressPrefix, id) }

// NewPickupAddress is an address to add. The place is its PSGC code alone:
// the city, province and region names come from internal/psgc, so an
// address never names a city its code does not.
type NewPickupAddress struct {
	IsDefault bool
	Name      string
	Line1     string
	Line2     string
	// PSGCCode is the 10-digit code of a city or municipality.
	PSGCCode string
	// PostalCode defaults to the city's indicative one.
	PostalCode string
	Phone      string
}

// AddPickupAddresses adds addresses to a seller's in one transaction
// (operators and the sandbox seed; partners have no route to add one). At
// most one of a seller's addresses is the default: a second one fails.
func (s *Service) AddPickupAddresses(ctx context.Context, sellerID string, as []NewPickupAddress) ([]PickupAddress, error) {
	// The shop's own business time (a test shop's clock may run ahead):
	// operators and the seed call without a verified seller in ctx.
	now := s.business.Business(principal.WithSeller(ctx, sellerID))
	out := make([]PickupAddress, len(as))
	for i, a := range as {
		place, err := placeOf(a.PSGCCode)
		if err != nil {
			return nil, err
		}
		postal := a.PostalCode
		if postal == "" {
			postal = place.City.PostalCode
		}
		out[i] = PickupAddress{
			ID: ids.NewAt(addressPrefix, now), SellerID: sellerID, IsDefault: a.IsDefault,
			Name: a.Name, Line1: a.Line1, Line2: a.Line2, Phone: a.Phone, PostalCode: postal,
			City: place.City.Name, Province: place.Province, Region: place.Region.Name, PSGCCode: place.City.Code,
			CreatedAt: now, UpdatedAt: now,
		}
		if out[i].Name == "" || out[i].Line1 == "" || out[i].Phone == "" || out[i].PostalCode == "" {
			return nil, fmt.Errorf("sellers: address %d needs a name, line1, phone and postal code", i)
		}
	}
	err := s.store.AddPickupAddresses(ctx, sellerID, out)
	// Forgotten whether or not the write took: a failed one may still
	// have committed (a lost answer), and a read costs little.
	s.defaults.forget(sellerID)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// placeOf is the address city of a PSGC code: a city or municipality, not
// a district of the City of Manila (the city itself is the address city).
func placeOf(code string) (psgc.Place, error) {
	c, ok := psgc.CityByCode(code)
	if !ok || c.Class == "SubMun" {
		return psgc.Place{}, fmt.Errorf("sellers: %q is not the PSGC code of a city or municipality", code)
	}
	return psgc.PlaceOf(c), nil
}
