package catalog

import (
	"context"
	"errors"

	"buf.build/go/protovalidate"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/validation"
	"github.com/mallplatform/partnerapi/services/catalog/productinput"
)

// BulkCreateProducts implements catalogv1.CatalogServiceServer. The request
// interceptor checked the list's size only (its items' rules are marked
// ignored in the proto, so one bad item does not refuse the batch); each
// item is validated here with the same validator and the rules of
// ProductCreateInput, as a single create body is, and its violations become
// that item's error.
func (s *Server) BulkCreateProducts(ctx context.Context, req *catalogv1.BulkCreateProductsRequest) (*catalogv1.BulkCreateProductsResponse, error) {
	items, err := bulkItems(ctx, req.GetProducts())
	if err != nil {
		return nil, err
	}
	res, err := s.svc.BulkCreateProducts(ctx, items)
	if err != nil {
		return nil, err
	}
	return &catalogv1.BulkCreateProductsResponse{Data: bulkResultToProto(len(items), res)}, nil
}

// bulkItems validates and converts each item, on every core (the validator
// is safe for concurrent use); item i's outcome is items[i].
func bulkItems(ctx context.Context, in []*catalogv1.ProductCreateInput) ([]BulkCreateItem, error) {
	items := make([]BulkCreateItem, len(in))
	v := validation.Validator()
	err := eachInParallel(ctx, len(in), func(_ context.Context, i int) error {
		if err := v.Validate(in[i]); err != nil {
			var verr *protovalidate.ValidationError
			if !errors.As(err, &verr) {
				return err
			}
			items[i].Violations = itemViolations(in[i], verr)
			return nil
		}
		conv, err := createInputFromProto(in[i])
		if err != nil {
			e, _ := apierr.As(err)
			items[i].Violations = productinput.Violations{{Code: e.Code, Message: e.Message}}
			return nil
		}
		items[i].Input = conv
		return nil
	})
	return items, err
}

// itemViolations are an item's protovalidate violations, with paths inside
// the item as single create names them. Only the first few are rendered
// (the message lists no more), so a batch of items wrong everywhere costs
// no more to describe than one.
func itemViolations(in *catalogv1.ProductCreateInput, verr *protovalidate.ValidationError) productinput.Violations {
	md := in.ProtoReflect().Descriptor()
	n := min(len(verr.Violations), apierr.MaxListedViolations)
	out := make(productinput.Violations, 0, len(verr.Violations))
	for i, v := range verr.Violations {
		if i >= n {
			// Counted, not rendered.
			out = append(out, productinput.Violation{Code: apierr.ValidationError})
			continue
		}
		out = append(out, productinput.Violation{Field: validation.FieldPath(md, v, ""), Code: apierr.ValidationError,
			Message: validation.Message(v)})
	}
	return out
}

func bulkResultToProto(total int, res BulkCreateResult) *catalogv1.BulkCreateProductsResult {
	out := &catalogv1.BulkCreateProductsResult{
		Created: res.Views,
		Errors:  make([]*catalogv1.BulkProductError, len(res.Errors)),
		Summary: &commonv1.BulkSummary{Total: int64(total), Succeeded: int64(len(res.Created)), Failed: int64(len(res.Errors))},
	}
	for i, e := range res.Errors {
		pe := &catalogv1.BulkProductError{Index: int32(e.Index), Code: apierr.Name(e.Code), Message: e.Message}
		if e.Field != "" {
			pe.Field = &e.Field
		}
		out.Errors[i] = pe
	}
	return out
}
