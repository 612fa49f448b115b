package catalog

import (
	"context"
	"fmt"
	"time"

	errorsv1 "github.com/mallplatform/partnerapi/gen/mp/errors/v1"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/services/catalog/productinput"
)

// codeDuplicate answers a SKU the seller already uses: 409, the spec's
// status of a conflict with existing data.
const codeDuplicate = errorsv1.ErrorCode_ERROR_CODE_DUPLICATE

// newProduct is the product a checked input becomes, in status proposed,
// with its ids drawn (the short id too; the store redraws one found taken).
func newProduct(sellerID string, in ProductInput, checked *productinput.Product, now time.Time) *Product {
	p := &Product{
		ID:                   ids.NewAt("prd", now),
		ShortID:              newShortID(),
		SellerID:             sellerID,
		Name:                 in.Title,
		Description:          in.Description,
		Status:               StatusProposed,
		CategoryID:           checked.Category.ID,
		CategoryName:         checked.Category.Name,
		Images:               checked.Images,
		Weight:               checked.Weight,
		Dimensions:           checked.Dimensions,
		UseVariantDimensions: checked.UseVariantDimensions,
		OptionsOrder:         checked.OptionsOrder,
		AttributeValues:      checked.AttributeValues,
		Variants:             checked.Variants,
		CreatedAt:            now,
		UpdatedAt:            now,
	}
	for i := range p.Variants {
		p.Variants[i].ID = ids.NewAt("var", now)
	}
	return p
}

// skusOf lists the SKUs of variants, in order.
func skusOf(variants []Variant) []string {
	var out []string
	for _, v := range variants {
		if v.SKU != nil {
			out = append(out, *v.SKU)
		}
	}
	return out
}

// checkSellerSKUs refuses variants whose SKU one of the seller's products
// (any but an archived one) already holds: a SKU names one sellable unit
// of the shop, which stock updates by SKU rely on.
func (s *Service) checkSellerSKUs(ctx context.Context, sellerID string, variants []Variant) error {
	skus := skusOf(variants)
	if len(skus) == 0 {
		return nil
	}
	inUse, err := s.store.SKUsInUse(ctx, sellerID, skus)
	if err != nil {
		return err
	}
	var vs productinput.Violations
	for i, v := range variants {
		if v.SKU == nil {
			continue
		}
		if holder, taken := inUse[*v.SKU]; taken {
			vs.Add(fmt.Sprintf("variants[%d].sku", i), codeDuplicate, skuTakenMessage(*v.SKU, holder))
		}
	}
	return vs.Err()
}

func skuTakenMessage(sku, productID string) string {
	return fmt.Sprintf("%q is already used by product %s; SKUs are unique across the shop's products", sku, productID)
}
