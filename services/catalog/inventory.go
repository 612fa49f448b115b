package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/events"
)

// Batch bounds of the two routes (the spec's recommended batches, enforced
// by the request schema as well).
const (
	MaxInventoryItems = 100
	MaxVariantItems   = 50
)

// StockItem is one item of an inventory bulk update: a variant named by id
// or SKU (exactly one), and a new quantity or a signed adjustment (exactly
// one), optionally guarded by the expected quantity. The request schema
// already enforces the "exactly one" rules and the bounds.
type StockItem struct {
	VariantID, SKU   *string
	Quantity, Adjust *int64
	Expected         *int64
}

// VariantItem is one item of a product's variant bulk update.
type VariantItem struct {
	VariantID    string
	Price, Stock *int64
}

// Level is an applied item: the variant's stock after it.
type Level struct {
	VariantID string
	SKU       *string
	Stock     *int64
}

// ItemError is an item a bulk update did not apply.
type ItemError struct {
	Index int
	Err   *apierr.Error
}

// BulkUpdate is the outcome of a bulk update, each list in submission
// order.
type BulkUpdate struct {
	Updated []Level
	Errors  []ItemError
}

// planned is an item resolved to its variant, ready to apply.
type planned struct {
	index  int
	change VariantChange
}

// BulkUpdateInventory applies each item as one conditional update of its
// variant. An item's failure (NOT_FOUND, CONCURRENT_MODIFICATION,
// VALIDATION_ERROR) does not stop the others; the whole request, with its
// inventory.updated and product.updated events, commits in one transaction.
func (s *Service) BulkUpdateInventory(ctx context.Context, items []StockItem) (BulkUpdate, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return BulkUpdate{}, err
	}
	if len(items) == 0 || len(items) > MaxInventoryItems {
		return BulkUpdate{}, apierr.Newf(apierr.ValidationError, "items: send 1 to %d items", MaxInventoryItems)
	}
	var res BulkUpdate
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		res = BulkUpdate{}
		plan, itemErrs, err := s.resolveStockItems(ctx, sellerID, items)
		if err != nil {
			return err
		}
		applied, moreErrs, err := s.applyPlan(ctx, sellerID, plan, func(p planned, st VariantState) *apierr.Error {
			return explainStock(p.change, st)
		})
		if err != nil {
			return err
		}
		res = collect(applied, append(itemErrs, moreErrs...))
		return nil
	})
	return res, err
}

// BulkUpdateVariants sets the price and/or stock of variants of one of the
// seller's products. A product under review is PRODUCT_UNDER_REVIEW and an
// archived or unknown one NOT_FOUND, for the whole request, as product
// update answers; an item naming a variant the product does not have is a
// NOT_FOUND item, and a variant named twice is a VALIDATION_ERROR item the
// second time.
func (s *Service) BulkUpdateVariants(ctx context.Context, productID string, items []VariantItem) (BulkUpdate, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return BulkUpdate{}, err
	}
	if !ids.Valid("prd", productID) {
		return BulkUpdate{}, notFoundProduct(productID)
	}
	if len(items) == 0 || len(items) > MaxVariantItems {
		return BulkUpdate{}, apierr.Newf(apierr.ValidationError, "variants: send 1 to %d variants", MaxVariantItems)
	}
	var res BulkUpdate
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		res = BulkUpdate{}
		p, err := s.store.GetProduct(ctx, sellerID, productID)
		if err != nil {
			return s.productErr(err, productID)
		}
		if err := checkWritable(p, productID); err != nil {
			return err
		}
		has := make(map[string]bool, len(p.Variants))
		for _, v := range p.Variants {
			has[v.ID] = true
		}
		seen := make(map[string]bool, len(items))
		var plan []planned
		var itemErrs []ItemError
		for i, it := range items {
			switch {
			case seen[it.VariantID]:
				itemErrs = append(itemErrs, ItemError{i, apierr.Newf(apierr.ValidationError,
					"variants[%d].variantId: %s appears more than once in this request", i, it.VariantID)})
				continue
			case !has[it.VariantID]:
				itemErrs = append(itemErrs, ItemError{i, apierr.Newf(apierr.NotFound,
					"variants[%d].variantId: the product has no variant %q", i, it.VariantID)})
			default:
				plan = append(plan, planned{index: i, change: VariantChange{VariantID: it.VariantID, ProductID: productID,
					SetStock: it.Stock, SetPrice: it.Price, Refuse: []ProductStatus{StatusUnderReview}}})
			}
			seen[it.VariantID] = true
		}
		var underReview bool
		applied, moreErrs, err := s.applyPlan(ctx, sellerID, plan, func(p planned, st VariantState) *apierr.Error {
			if st.ProductStatus == StatusUnderReview {
				underReview = true
			}
			return explainStock(p.change, st)
		})
		if err != nil {
			return err
		}
		if underReview {
			// The product went into review while this request ran.
			return checkWritable(&Product{Status: StatusUnderReview}, productID)
		}
		res = collect(applied, append(itemErrs, moreErrs...))
		return nil
	})
	return res, err
}

// resolveStockItems names each item's variant: by id, or by SKU among the
// seller's products (not archived). A SKU two of them share is ambiguous.
func (s *Service) resolveStockItems(ctx context.Context, sellerID string, items []StockItem) ([]planned, []ItemError, error) {
	var idList, skuList []string
	for _, it := range items {
		switch {
		case it.VariantID != nil && ids.Valid("var", *it.VariantID):
			idList = append(idList, *it.VariantID)
		case it.SKU != nil:
			skuList = append(skuList, *it.SKU)
		}
	}
	refs, err := s.store.FindVariants(ctx, sellerID, idList, skuList)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[string]VariantRef, len(refs))
	bySKU := make(map[string][]VariantRef)
	for _, r := range refs {
		byID[r.ID] = r
		if r.SKU != nil {
			bySKU[*r.SKU] = append(bySKU[*r.SKU], r)
		}
	}
	var plan []planned
	var errs []ItemError
	for i, it := range items {
		var ref VariantRef
		switch {
		case it.VariantID != nil:
			r, ok := byID[*it.VariantID]
			if !ok {
				errs = append(errs, ItemError{i, apierr.Newf(apierr.NotFound, "items[%d].variantId: variant %q not found", i, *it.VariantID)})
				continue
			}
			ref = r
		case it.SKU != nil:
			matches := bySKU[*it.SKU]
			switch len(matches) {
			case 0:
				errs = append(errs, ItemError{i, apierr.Newf(apierr.NotFound, "items[%d].sku: no variant of yours has SKU %q", i, *it.SKU)})
				continue
			case 1:
				ref = matches[0]
			default:
				errs = append(errs, ItemError{i, apierr.Newf(apierr.ValidationError,
					"items[%d].sku: SKU %q is ambiguous: %d of your variants carry it (%s); name the variant by variantId",
					i, *it.SKU, len(matches), variantIDs(matches))})
				continue
			}
		default:
			errs = append(errs, ItemError{i, apierr.Newf(apierr.ValidationError, "items[%d]: send exactly one of variantId and sku", i)})
			continue
		}
		c := VariantChange{VariantID: ref.ID, SetStock: it.Quantity, AdjustStock: it.Adjust, ExpectedStock: it.Expected}
		if (c.SetStock == nil) == (c.AdjustStock == nil) {
			errs = append(errs, ItemError{i, apierr.Newf(apierr.ValidationError, "items[%d]: send exactly one of quantity and adjust", i)})
			continue
		}
		plan = append(plan, planned{index: i, change: c})
	}
	return plan, errs, nil
}

func variantIDs(refs []VariantRef) string {
	out := ""
	for i, r := range refs {
		if i > 0 {
			out += ", "
		}
		if i == 3 {
			out += fmt.Sprintf("and %d more", len(refs)-3)
			break
		}
		out += r.ID
	}
	return out
}

// appliedItem is a planned item that applied.
type appliedItem struct {
	index   int
	variant string
	changed VariantChanged
}

// applyPlan applies the plan, variant by variant in id order (the items of
// one variant in submission order), so that two requests lock the same
// variants in the same order; explain says why an item that did not apply
// was refused, from the variant as it stands (nil: the item is skipped). It then records the events
// of what changed: inventory.updated per variant whose stock moved (from its
// stock before the request to its stock after), product.updated per product
// whose variants' stock or price moved, after setting its updated_at.
func (s *Service) applyPlan(ctx context.Context, sellerID string, plan []planned,
	explain func(planned, VariantState) *apierr.Error,
) ([]appliedItem, []ItemError, error) {
	order := slices.Clone(plan)
	sort.SliceStable(order, func(a, b int) bool { return order[a].change.VariantID < order[b].change.VariantID })
	var applied []appliedItem
	var errs []ItemError
	for _, p := range order {
		ch, err := s.store.ChangeVariant(ctx, sellerID, p.change)
		if errors.Is(err, ErrNotApplied) {
			st, gerr := s.store.GetVariant(ctx, sellerID, p.change.VariantID)
			if gerr != nil && !errors.Is(gerr, ErrNotFound) {
				return nil, nil, gerr
			}
			if errors.Is(gerr, ErrNotFound) {
				st = VariantState{}
			}
			if e := explain(p, st); e != nil {
				errs = append(errs, ItemError{p.index, e})
			}
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		applied = append(applied, appliedItem{index: p.index, variant: p.change.VariantID, changed: ch})
	}
	if err := s.recordStockChanges(ctx, sellerID, applied); err != nil {
		return nil, nil, err
	}
	return applied, errs, nil
}

// recordStockChanges records the events of the applied items (in the
// order they applied).
func (s *Service) recordStockChanges(ctx context.Context, sellerID string, applied []appliedItem) error {
	type net struct {
		productID  string
		sku        *string
		before     *int64
		after      *int64
		priceMoved bool
	}
	byVariant := map[string]*net{}
	var variantOrder []string
	for _, a := range applied {
		n, ok := byVariant[a.variant]
		if !ok {
			n = &net{productID: a.changed.ProductID, sku: a.changed.SKU, before: a.changed.StockBefore}
			byVariant[a.variant] = n
			variantOrder = append(variantOrder, a.variant)
		}
		n.after = a.changed.StockAfter
		if !equalInt(a.changed.PriceBefore, a.changed.PriceAfter) {
			n.priceMoved = true
		}
	}
	now := s.clock.Business(ctx).UTC()
	var changes []events.Change
	productMoved := map[string]bool{}
	var products []string
	for _, id := range variantOrder {
		n := byVariant[id]
		stockMoved := !equalInt(n.before, n.after)
		if stockMoved && n.after != nil {
			changes = append(changes, events.Change{SellerID: sellerID, Type: eventsv1.EventType_EVENT_TYPE_INVENTORY_UPDATED,
				ResourceID: id, At: now, View: &eventsv1.InventoryLevel{ProductId: n.productID, VariantId: id, Sku: n.sku,
					StockQuantity: *n.after, Previous: n.before}})
		}
		if (stockMoved || n.priceMoved) && !productMoved[n.productID] {
			productMoved[n.productID] = true
			products = append(products, n.productID)
		}
	}
	if len(products) > 0 {
		if err := s.store.TouchProducts(ctx, sellerID, products, now); err != nil {
			return err
		}
	}
	for _, id := range products {
		p, err := s.store.GetProduct(ctx, sellerID, id)
		if err != nil {
			return fmt.Errorf("catalog: read changed product: %w", err)
		}
		changes = append(changes, events.Change{SellerID: sellerID, Type: eventsv1.EventType_EVENT_TYPE_PRODUCT_UPDATED,
			ResourceID: p.ID, At: now, View: productToProto(p)})
	}
	if len(changes) == 0 {
		return nil
	}
	return s.events.RecordMany(ctx, changes)
}

// explainStock says why change did not apply to the variant as it stands
// (st is zero when the seller has no such variant).
func explainStock(c VariantChange, st VariantState) *apierr.Error {
	switch {
	case st.ID == "" || st.ProductStatus == StatusArchived || (c.ProductID != "" && st.ProductID != c.ProductID):
		return apierr.Newf(apierr.NotFound, "variant %q not found", c.VariantID)
	case st.ProductStatus == StatusUnderReview && slices.Contains(c.Refuse, StatusUnderReview):
		return apierr.New(apierr.ProductUnderReview, "the product is under review and cannot be changed until the review ends")
	case c.ExpectedStock != nil && !equalInt(st.Stock, c.ExpectedStock):
		return apierr.Newf(apierr.ConcurrentModification, "variant %q: the stock is %s, not the expected %d; read it again before deciding",
			c.VariantID, stockText(st.Stock), *c.ExpectedStock)
	case c.AdjustStock != nil && st.Stock == nil:
		return apierr.Newf(apierr.ValidationError, "variant %q: the stock is unknown, so it cannot be adjusted; set it with quantity first", c.VariantID)
	case c.AdjustStock != nil && *st.Stock+*c.AdjustStock < 0:
		return apierr.Newf(apierr.ValidationError, "variant %q: adjusting the stock of %d by %d would take it below 0",
			c.VariantID, *st.Stock, *c.AdjustStock)
	case c.AdjustStock != nil && *st.Stock+*c.AdjustStock > MaxStock:
		return apierr.Newf(apierr.ValidationError, "variant %q: adjusting the stock of %d by %d would take it above %d",
			c.VariantID, *st.Stock, *c.AdjustStock, MaxStock)
	}
	// The variant moved between the update and this read (another
	// transaction changed it after the update found it): safe to retry.
	return apierr.Newf(apierr.ConcurrentModification, "variant %q changed while it was being updated; read it again and retry", c.VariantID)
}

func stockText(v *int64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprint(*v)
}

func equalInt(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// collect orders the applied items and the errors by submission index.
func collect(applied []appliedItem, errs []ItemError) BulkUpdate {
	out := BulkUpdate{Updated: make([]Level, 0, len(applied)), Errors: errs}
	sort.Slice(applied, func(a, b int) bool { return applied[a].index < applied[b].index })
	for _, a := range applied {
		out.Updated = append(out.Updated, Level{VariantID: a.variant, SKU: a.changed.SKU, Stock: a.changed.StockAfter})
	}
	sort.Slice(out.Errors, func(a, b int) bool { return out.Errors[a].Index < out.Errors[b].Index })
	return out
}
