package productinput

import (
	"context"
	"slices"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// Check applies the create rules that protovalidate cannot express (the
// category, attribute values against it, images, variants, options and
// figures) and returns the product in its stored shape. With violations the
// product is nil; a CATEGORY_NOT_FOUND violation comes alone, because the
// attribute values cannot be checked without the category. ownImages is
// the deployment's own upload prefix, accepted in images besides https
// URLs (CheckImages). err is a platform fault only.
func Check(ctx context.Context, cats Categories, in Input, ownImages string) (*Product, Violations, error) {
	var v Violations
	leaf, cv, err := ResolveLeaf(ctx, cats, "category", in.Category)
	if err != nil {
		return nil, nil, err
	}
	if cv != nil {
		if cv.Code != apierr.ValidationError {
			return nil, Violations{*cv}, nil
		}
		// A known but unusable category is reported together with the
		// other mistakes.
		v = append(v, *cv)
	}
	CheckImages(&v, "images", in.Images, ownImages)
	var attrValues []AttributeValue
	if leaf != nil {
		attrValues = checkAttributeValues(&v, leaf, in.AttributeValues)
	}
	variants, optionsOrder := buildVariants(&v, in, ownImages)
	if len(v) > 0 {
		return nil, v, nil
	}
	p := &Product{
		Category:             leaf,
		Images:               slices.Clone(in.Images),
		UseVariantDimensions: in.UseVariantDimensions,
		OptionsOrder:         optionsOrder,
		AttributeValues:      attrValues,
		Variants:             variants,
	}
	p.Weight, p.Dimensions = productFigures(in, variants)
	return p, nil, nil
}
