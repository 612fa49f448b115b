package catalog

import (
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/types/known/timestamppb"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/pagination"
)

var statusToProto = map[ProductStatus]catalogv1.ProductStatus{
	StatusLive:        catalogv1.ProductStatus_PRODUCT_STATUS_LIVE,
	StatusUnlisted:    catalogv1.ProductStatus_PRODUCT_STATUS_UNLISTED,
	StatusDelisted:    catalogv1.ProductStatus_PRODUCT_STATUS_DELISTED,
	StatusProposed:    catalogv1.ProductStatus_PRODUCT_STATUS_PROPOSED,
	StatusUnderReview: catalogv1.ProductStatus_PRODUCT_STATUS_UNDER_REVIEW,
	StatusArchived:    catalogv1.ProductStatus_PRODUCT_STATUS_ARCHIVED,
}

var statusFromProto = func() map[catalogv1.ProductStatus]ProductStatus {
	m := make(map[catalogv1.ProductStatus]ProductStatus, len(statusToProto))
	for k, v := range statusToProto {
		m[v] = k
	}
	return m
}()

var inputTypeToProto = map[InputType]catalogv1.AttributeInputType{
	InputText:       catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_TEXT,
	InputNumber:     catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_NUMBER,
	InputBoolean:    catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_BOOLEAN,
	InputSelect:     catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_SELECT,
	InputMultivalue: catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_MULTIVALUE,
	InputDate:       catalogv1.AttributeInputType_ATTRIBUTE_INPUT_TYPE_DATE,
}

func pageRequest(page, limit *int32, cursor *string) pagination.Request {
	r := pagination.Request{}
	if page != nil {
		r.Page = *page
	}
	if limit != nil {
		r.Limit = *limit
	}
	if cursor != nil {
		r.Cursor = *cursor
	}
	return r
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func categoryToProto(c Category) *catalogv1.Category {
	return &catalogv1.Category{
		CategoryId:       c.ID,
		Name:             c.Name,
		Handle:           optional(c.Handle),
		Description:      optional(c.Description),
		ParentCategoryId: optional(c.ParentID),
	}
}

func attributeToProto(a Attribute) *catalogv1.CategoryAttribute {
	return &catalogv1.CategoryAttribute{
		AttributeId:   a.ID,
		Name:          a.Name,
		InputType:     inputTypeToProto[a.InputType],
		Mandatory:     a.Mandatory,
		AllowedValues: a.AllowedValues,
		Unit:          optional(a.Unit),
	}
}

func dimensionsToProto(d Dimensions) *catalogv1.Dimensions {
	return &catalogv1.Dimensions{Length: d.Length, Width: d.Width, Height: d.Height}
}

func productToProto(p *Product) *catalogv1.Product {
	out := &catalogv1.Product{
		ProductId:   p.ID,
		ShortId:     p.ShortID,
		Name:        p.Name,
		Description: p.Description,
		Status:      statusToProto[p.Status],
		Category:    p.CategoryName,
		Images:      p.Images,
		Weight:      p.Weight,
		Dimensions:  dimensionsToProto(p.Dimensions),
		Variants:    make([]*catalogv1.ProductVariant, len(p.Variants)),
		CreatedAt:   timestamppb.New(p.CreatedAt),
		UpdatedAt:   timestamppb.New(p.UpdatedAt),
		ReviewNote:  p.ReviewNote,
	}
	if len(p.Images) > 0 {
		out.Thumbnail = p.Images[0]
	}
	if v := p.Primary(); v != nil {
		if v.SKU != nil {
			out.Sku = *v.SKU
		}
		if v.Price != nil {
			out.Price = *v.Price
		}
		if v.Stock != nil {
			out.Stock = *v.Stock
		}
	}
	for i, v := range p.Variants {
		pv := &catalogv1.ProductVariant{
			VariantId:     v.ID,
			Sku:           v.SKU,
			Price:         v.Price,
			StockQuantity: v.Stock,
			Options:       make([]*catalogv1.VariantOption, len(v.Options)),
			Dimensions:    dimensionsToProto(v.Dimensions),
			Weight:        v.Weight,
			Images:        v.Images,
		}
		for j, o := range v.Options {
			pv.Options[j] = &catalogv1.VariantOption{Name: o.Name, Value: o.Value}
		}
		out.Variants[i] = pv
	}
	for _, g := range p.OptionsOrder {
		out.OptionsOrder = append(out.OptionsOrder, &catalogv1.OptionGroup{Title: g.Title, Values: g.Values})
	}
	return out
}

func createInputFromProto(in *catalogv1.ProductCreateInput) (ProductInput, error) {
	out := ProductInput{
		Title:                in.GetTitle(),
		Description:          in.GetDescription(),
		Category:             in.GetCategory(),
		Images:               in.GetImages(),
		Weight:               in.Weight,
		Length:               in.Length,
		Width:                in.Width,
		Height:               in.Height,
		UseVariantDimensions: in.GetUseVariantDimensions(),
		AttributeValues:      make([]AttributeValue, len(in.GetAttributeValues())),
		Variants:             make([]VariantInput, len(in.GetVariants())),
	}
	for i, av := range in.GetAttributeValues() {
		out.AttributeValues[i].AttributeID = av.GetAttributeId()
		if av.GetValue() == nil {
			continue
		}
		raw, err := json.Marshal(av.GetValue().AsInterface())
		if err != nil {
			return ProductInput{}, apierr.New(apierr.ValidationError, fmt.Sprintf("attribute_values[%d].value: is not a JSON value", i))
		}
		out.AttributeValues[i].Value = raw
	}
	for i, v := range in.GetVariants() {
		vi := VariantInput{
			Title:   v.Title,
			SKU:     v.Sku,
			Price:   v.Price,
			Stock:   v.Stock,
			Options: make([]OptionInput, len(v.GetOptions())),
			Images:  v.GetImages(),
			Weight:  v.Weight,
			Length:  v.Length,
			Width:   v.Width,
			Height:  v.Height,
		}
		for j, o := range v.GetOptions() {
			vi.Options[j] = OptionInput{Name: o.GetName(), Value: o.GetValue()}
		}
		out.Variants[i] = vi
	}
	return out, nil
}

func updateFromProto(in *catalogv1.ProductUpdateInput) ProductUpdate {
	out := ProductUpdate{
		Title:       in.Title,
		Description: in.Description,
		Category:    in.Category,
	}
	if in.GetImages() != nil {
		images := in.GetImages().GetValues()
		out.Images = &images
	}
	return out
}
