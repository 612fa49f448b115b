package catalog

import (
	"context"
	"fmt"
	"time"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/catalog/productinput"
	"github.com/mallplatform/partnerapi/services/events"
)

// MaxBulkCreate is the largest bulk create, the spec's schema bound (50 is
// its recommended batch).
const MaxBulkCreate = 5000

// BulkCreateItem is one product of a bulk create: the input, and the
// violations the edge already found in it (its protovalidate rules), which
// make it an error item before any other check.
type BulkCreateItem struct {
	Input      ProductInput
	Violations productinput.Violations
}

// BulkCreateError is a rejected item: its zero-based index, the code and
// field path of its first violation, and the message single create would
// have answered for the same input.
type BulkCreateError struct {
	Index   int
	Code    apierr.Code
	Field   string
	Message string
}

// BulkCreateResult is the outcome of a bulk create: created products and
// errors, each in submission order.
type BulkCreateResult struct {
	Created []*Product
	// Views[i] is Created[i] rendered as its GET renders it: the data of its
	// product.created event, which the answer carries as it is rather than
	// rendering the product a second time.
	Views  [][]byte
	Errors []BulkCreateError
	// Timing splits the call's time for measurement (the benchmark reports
	// it); it is not part of the answer.
	Timing BulkTiming
}

// BulkTiming is where a bulk create spent its time.
type BulkTiming struct {
	Validation, Rendering, Database time.Duration
}

// productCreatedEvent is p's product.created event, rendered.
func productCreatedEvent(p *Product) (events.Event, error) {
	return events.Prepare(events.Change{SellerID: p.SellerID, Type: eventsv1.EventType_EVENT_TYPE_PRODUCT_CREATED,
		ResourceID: p.ID, At: p.CreatedAt, View: productToProto(p)})
}

func bulkError(index int, vs productinput.Violations) BulkCreateError {
	e, _ := apierr.As(vs.Err())
	return BulkCreateError{Index: index, Code: vs[0].Code, Field: vs[0].Field, Message: e.Message}
}

// BulkCreateProducts creates each valid item as CreateProduct would; an
// invalid item becomes an error and never stops the others. A SKU that an
// earlier created item of the batch or one of the seller's products (not
// archived) already uses makes the item a DUPLICATE error. The created
// products and their product.created events commit in one transaction with
// a fixed number of statements; a platform fault creates none.
func (s *Service) BulkCreateProducts(ctx context.Context, items []BulkCreateItem) (BulkCreateResult, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return BulkCreateResult{}, err
	}
	if len(items) > MaxBulkCreate {
		return BulkCreateResult{}, apierr.Newf(apierr.ValidationError, "products: must contain at most %d items", MaxBulkCreate)
	}
	start := time.Now()
	var res BulkCreateResult
	// failed[i] holds item i's violations; checked[i] its stored shape.
	failed := make([]productinput.Violations, len(items))
	checked := make([]*productinput.Product, len(items))
	cats := productinput.NewCachedCategories(s.store)
	err = eachInParallel(ctx, len(items), func(ctx context.Context, i int) error {
		if len(items[i].Violations) > 0 {
			failed[i] = items[i].Violations
			return nil
		}
		p, vs, err := productinput.Check(ctx, cats, items[i].Input, s.imagePrefix)
		failed[i], checked[i] = vs, p
		return err
	})
	if err != nil {
		return BulkCreateResult{}, err
	}
	// SKUs repeated in the batch: the first item that would be created
	// keeps its SKU, a later one is refused.
	owner := map[string]int{}
	for i, p := range checked {
		if p == nil {
			continue
		}
		var vs productinput.Violations
		for j, v := range p.Variants {
			if v.SKU == nil {
				continue
			}
			if first, dup := owner[*v.SKU]; dup {
				vs.Add(fmt.Sprintf("variants[%d].sku", j), codeDuplicate,
					fmt.Sprintf("%q is already used by products[%d] of this request; SKUs are unique across the shop's products", *v.SKU, first))
			}
		}
		if len(vs) > 0 {
			failed[i], checked[i] = vs, nil
			continue
		}
		for _, sku := range skusOf(p.Variants) {
			owner[sku] = i
		}
	}
	res.Timing.Validation = time.Since(start)

	// The products and their events are made before the transaction opens:
	// rendering 5,000 views is CPU work that the transaction need not wait
	// for. An item that the SKU check inside refuses drops its event; a
	// product whose short id is redrawn on insert renders again.
	renderStart := time.Now()
	now := s.clock.Business(ctx).UTC()
	made := make([]*Product, len(items))
	evs := make([]events.Event, len(items))
	err = eachInParallel(ctx, len(items), func(_ context.Context, i int) error {
		if checked[i] == nil {
			return nil
		}
		made[i] = newProduct(sellerID, items[i].Input, checked[i], now)
		var perr error
		evs[i], perr = productCreatedEvent(made[i])
		return perr
	})
	if err != nil {
		return BulkCreateResult{}, err
	}
	res.Timing.Rendering = time.Since(renderStart)

	dbStart := time.Now()
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		skus := make([]string, 0, len(owner))
		for sku := range owner {
			skus = append(skus, sku)
		}
		inUse, err := s.store.SKUsInUse(ctx, sellerID, skus)
		if err != nil {
			return err
		}
		products := make([]*Product, 0, len(items))
		recorded := make([]events.Event, 0, len(items))
		renderedShortID := make([]string, 0, len(items))
		for i, p := range made {
			if p == nil {
				continue
			}
			var vs productinput.Violations
			for j, v := range p.Variants {
				if v.SKU == nil {
					continue
				}
				if holder, taken := inUse[*v.SKU]; taken {
					vs.Add(fmt.Sprintf("variants[%d].sku", j), codeDuplicate, skuTakenMessage(*v.SKU, holder))
				}
			}
			if len(vs) > 0 {
				failed[i] = vs
				continue
			}
			products = append(products, p)
			recorded = append(recorded, evs[i])
			renderedShortID = append(renderedShortID, p.ShortID)
		}
		if err := s.store.CreateProducts(ctx, products, newShortID); err != nil {
			return err
		}
		for i, p := range products {
			if p.ShortID != renderedShortID[i] {
				if recorded[i], err = productCreatedEvent(p); err != nil {
					return err
				}
			}
		}
		if len(recorded) > 0 {
			if err := s.events.RecordPrepared(ctx, recorded); err != nil {
				return err
			}
		}
		res.Created = products
		res.Views = make([][]byte, len(recorded))
		for i, e := range recorded {
			res.Views[i] = e.Data
		}
		return nil
	})
	if err != nil {
		return BulkCreateResult{}, err
	}
	res.Timing.Database = time.Since(dbStart)
	for i, vs := range failed {
		if len(vs) > 0 {
			res.Errors = append(res.Errors, bulkError(i, vs))
		}
	}
	return res, nil
}
