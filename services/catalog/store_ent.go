package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/category"
	"github.com/mallplatform/partnerapi/ent/categoryattribute"
	"github.com/mallplatform/partnerapi/ent/predicate"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/ent/productvariant"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtypes"
	"github.com/mallplatform/partnerapi/internal/pagination"
)

// EntStore is the Store on ent, for PostgreSQL and SQLite alike.
type EntStore struct {
	client *ent.Client
	// lockRows adds FOR UPDATE to read-modify-write loads. SQLite has no
	// row locks and needs none: the platform opens its transactions with
	// BEGIN IMMEDIATE, which already serialises writers.
	lockRows bool
}

var _ Store = (*EntStore)(nil)

// NewEntStore returns a Store on d.
func NewEntStore(d *db.DB) *EntStore {
	return &EntStore{client: d.Ent, lockRows: d.Driver() == db.DriverPostgres}
}

// db is the client of ctx's transaction when the call runs in one (an
// idempotent write: its key completes in the same transaction), the store's
// own otherwise.
func (s *EntStore) db(ctx context.Context) *ent.Client { return db.Client(ctx, s.client) }

// insertChunk keeps bulk inserts well below the bind-parameter limits of
// both backends (SQLite: 32766, PostgreSQL: 65535).
const insertChunk = 500

// listed is the predicate of a listed category: it and every ancestor up to
// the root are active. The recursion is unrolled to depth levels because
// neither backend's ent dialect offers a portable recursive query here, and
// the taxonomy is shallow by rule (MaxCategoryDepth).
func listed(depth int) predicate.Category {
	if depth <= 1 {
		return category.And(category.Active(true), category.ParentIDIsNil())
	}
	return category.And(
		category.Active(true),
		category.Or(category.ParentIDIsNil(), category.HasParentWith(listed(depth-1))),
	)
}

// ListCategories implements Store.
func (s *EntStore) ListCategories(ctx context.Context, w pagination.Window[pagination.NumKey]) ([]Category, bool, error) {
	q := s.db(ctx).Category.Query().Where(listed(MaxCategoryDepth))
	if w.After != nil {
		pos, id := w.After.N, w.After.ID
		q = q.Where(func(sel *sql.Selector) {
			sel.Where(sql.CompositeGT([]string{sel.C(category.FieldPosition), sel.C(category.FieldID)}, pos, id))
		})
	} else if w.Offset > 0 {
		q = q.Offset(w.Offset)
	}
	rows, err := q.Order(category.ByPosition(), category.ByID()).Limit(w.Limit + 1).All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("catalog: list categories: %w", err)
	}
	more := len(rows) > w.Limit
	if more {
		rows = rows[:w.Limit]
	}
	out := make([]Category, len(rows))
	for i, r := range rows {
		out[i] = categoryFromEnt(r)
	}
	return out, more, nil
}

// CountCategories implements Store.
func (s *EntStore) CountCategories(ctx context.Context) (int64, error) {
	n, err := s.db(ctx).Category.Query().Where(listed(MaxCategoryDepth)).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count categories: %w", err)
	}
	return int64(n), nil
}

// GetCategory implements Store.
func (s *EntStore) GetCategory(ctx context.Context, id string) (Category, error) {
	r, err := s.db(ctx).Category.Get(ctx, id)
	if ent.IsNotFound(err) {
		return Category{}, ErrNotFound
	}
	if err != nil {
		return Category{}, fmt.Errorf("catalog: get category: %w", err)
	}
	return categoryFromEnt(r), nil
}

// CategoryNameExists implements Store.
func (s *EntStore) CategoryNameExists(ctx context.Context, name string) (bool, error) {
	ok, err := s.db(ctx).Category.Query().Where(category.NameEqualFold(name)).Exist(ctx)
	if err != nil {
		return false, fmt.Errorf("catalog: find category by name: %w", err)
	}
	return ok, nil
}

// HasActiveChildren implements Store.
func (s *EntStore) HasActiveChildren(ctx context.Context, id string) (bool, error) {
	ok, err := s.db(ctx).Category.Query().Where(category.ParentID(id), category.Active(true)).Exist(ctx)
	if err != nil {
		return false, fmt.Errorf("catalog: find child categories: %w", err)
	}
	return ok, nil
}

// ListAttributes implements Store.
func (s *EntStore) ListAttributes(ctx context.Context, categoryIDs []string) ([]Attribute, error) {
	if len(categoryIDs) == 0 {
		return nil, nil
	}
	rows, err := s.db(ctx).CategoryAttribute.Query().
		Where(categoryattribute.CategoryIDIn(categoryIDs...)).
		Order(categoryattribute.ByCategoryID(), categoryattribute.ByPosition(), categoryattribute.ByID()).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: list attributes: %w", err)
	}
	out := make([]Attribute, len(rows))
	for i, r := range rows {
		out[i] = Attribute{
			ID:            r.ID,
			CategoryID:    r.CategoryID,
			Name:          r.Name,
			InputType:     InputType(r.InputType),
			Mandatory:     r.Mandatory,
			AllowedValues: r.AllowedValues,
			Unit:          r.Unit,
			Position:      r.Position,
		}
	}
	return out, nil
}

// InsertTaxonomy implements Store. Two processes seeding an empty database
// at once both find it empty; ON CONFLICT DO NOTHING lets the second one
// wait for the first and then write nothing instead of failing.
func (s *EntStore) InsertTaxonomy(ctx context.Context, cats []Category, attrs []Attribute) (bool, error) {
	inserted := false
	err := db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		exists, err := tx.Category.Query().Exist(ctx)
		if err != nil || exists {
			return err
		}
		for start := 0; start < len(cats); start += insertChunk {
			chunk := cats[start:min(start+insertChunk, len(cats))]
			builders := make([]*ent.CategoryCreate, len(chunk))
			for i, c := range chunk {
				b := tx.Category.Create().
					SetID(c.ID).SetName(c.Name).SetActive(c.Active).SetPosition(c.Position)
				if c.Handle != "" {
					b.SetHandle(c.Handle)
				}
				if c.Description != "" {
					b.SetDescription(c.Description)
				}
				if c.ParentID != "" {
					b.SetParentID(c.ParentID)
				}
				if !c.CreatedAt.IsZero() {
					b.SetCreatedAt(c.CreatedAt)
				}
				builders[i] = b
			}
			if err := tx.Category.CreateBulk(builders...).OnConflictColumns(category.FieldID).DoNothing().Exec(ctx); err != nil {
				return err
			}
		}
		for start := 0; start < len(attrs); start += insertChunk {
			chunk := attrs[start:min(start+insertChunk, len(attrs))]
			builders := make([]*ent.CategoryAttributeCreate, len(chunk))
			for i, a := range chunk {
				allowed := a.AllowedValues
				if allowed == nil {
					allowed = []string{}
				}
				b := tx.CategoryAttribute.Create().
					SetID(a.ID).SetCategoryID(a.CategoryID).SetName(a.Name).
					SetInputType(categoryattribute.InputType(a.InputType)).
					SetMandatory(a.Mandatory).SetAllowedValues(allowed).SetPosition(a.Position)
				if a.Unit != "" {
					b.SetUnit(a.Unit)
				}
				builders[i] = b
			}
			if err := tx.CategoryAttribute.CreateBulk(builders...).OnConflictColumns(categoryattribute.FieldID).DoNothing().Exec(ctx); err != nil {
				return err
			}
		}
		inserted = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("catalog: insert taxonomy: %w", err)
	}
	return inserted, nil
}

// CreateProduct implements Store.
func (s *EntStore) CreateProduct(ctx context.Context, p *Product) error {
	err := db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		b := productCreate(tx.Client(), p)
		if err := b.Exec(ctx); err != nil {
			if ent.IsConstraintError(err) && strings.Contains(err.Error(), "short_id") {
				return ErrShortIDTaken
			}
			return err
		}
		builders := make([]*ent.ProductVariantCreate, len(p.Variants))
		for i, v := range p.Variants {
			builders[i] = variantCreate(tx.Client(), p.ID, v)
		}
		return tx.ProductVariant.CreateBulk(builders...).Exec(ctx)
	})
	if errors.Is(err, ErrShortIDTaken) {
		return ErrShortIDTaken
	}
	if err != nil {
		return fmt.Errorf("catalog: create product: %w", err)
	}
	return nil
}

// GetProduct implements Store.
func (s *EntStore) GetProduct(ctx context.Context, sellerID, id string) (*Product, error) {
	r, err := sellerProducts(s.db(ctx), sellerID).
		Where(product.ID(id)).
		WithVariants(orderVariants).
		Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: get product: %w", err)
	}
	return productFromEnt(r, r.Edges.Variants), nil
}

// UpdateProduct implements Store.
func (s *EntStore) UpdateProduct(ctx context.Context, sellerID, id string, apply func(p *Product) (bool, error)) (*Product, error) {
	var out *Product
	err := db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		q := sellerProducts(tx.Client(), sellerID).Where(product.ID(id))
		if s.lockRows {
			q = q.ForUpdate()
		}
		r, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		variants, err := tx.ProductVariant.Query().
			Where(productvariant.ProductID(r.ID)).
			Order(productvariant.ByPosition()).
			All(ctx)
		if err != nil {
			return err
		}
		p := productFromEnt(r, variants)
		changed, err := apply(p)
		if err != nil {
			return applyError{err}
		}
		out = p
		if !changed {
			return nil
		}
		return tx.Product.UpdateOneID(r.ID).
			Where(product.SellerID(sellerID)).
			SetName(p.Name).SetDescription(p.Description).
			SetCategoryID(p.CategoryID).SetCategoryName(p.CategoryName).
			SetImages(nonNil(p.Images)).
			SetAttributeValues(attributeValuesToDB(p.AttributeValues)).
			SetUpdatedAt(p.UpdatedAt).
			Exec(ctx)
	})
	var ae applyError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &ae):
		// The service's business errors pass through exactly as returned.
		return nil, ae.err
	case errors.Is(err, ErrNotFound):
		return nil, ErrNotFound
	}
	return nil, fmt.Errorf("catalog: update product: %w", err)
}

// applyError marks an error returned by UpdateProduct's apply function, so
// it can be told apart from storage failures after the rollback.
type applyError struct{ err error }

func (e applyError) Error() string { return e.err.Error() }

// ListProducts implements Store.
func (s *EntStore) ListProducts(ctx context.Context, sellerID string, f ProductFilter, w pagination.Window[pagination.TimeKey]) ([]*Product, bool, error) {
	q := sellerProducts(s.db(ctx), sellerID).Where(productFilter(f)...)
	if w.After != nil {
		at, id := w.After.At, w.After.ID
		// A row-value comparison is what lets PostgreSQL walk the
		// (seller_id[, status], created_at, id) index from the cursor on.
		q = q.Where(func(sel *sql.Selector) {
			sel.Where(sql.CompositeLT([]string{sel.C(product.FieldCreatedAt), sel.C(product.FieldID)}, at, id))
		})
	} else if w.Offset > 0 {
		q = q.Offset(w.Offset)
	}
	rows, err := q.
		Order(product.ByCreatedAt(sql.OrderDesc()), product.ByID(sql.OrderDesc())).
		Limit(w.Limit + 1).
		WithVariants(orderVariants).
		All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("catalog: list products: %w", err)
	}
	more := len(rows) > w.Limit
	if more {
		rows = rows[:w.Limit]
	}
	out := make([]*Product, len(rows))
	for i, r := range rows {
		out[i] = productFromEnt(r, r.Edges.Variants)
	}
	return out, more, nil
}

// CountProducts implements Store.
func (s *EntStore) CountProducts(ctx context.Context, sellerID string, f ProductFilter) (int64, error) {
	n, err := sellerProducts(s.db(ctx), sellerID).Where(productFilter(f)...).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("catalog: count products: %w", err)
	}
	return int64(n), nil
}

// sellerProducts starts every query of products: the seller filter is
// written here and nowhere else.
func sellerProducts(c *ent.Client, sellerID string) *ent.ProductQuery {
	return c.Product.Query().Where(product.SellerID(sellerID))
}

// productFilter is a listing's filters, on top of sellerProducts.
func productFilter(f ProductFilter) []predicate.Product {
	if f.Status != "" {
		return []predicate.Product{product.StatusEQ(product.Status(f.Status))}
	}
	// Archived is what delete leaves: only asked for by name.
	return []predicate.Product{product.StatusNEQ(product.StatusArchived)}
}

func orderVariants(q *ent.ProductVariantQuery) {
	q.Order(productvariant.ByPosition())
}

func categoryFromEnt(r *ent.Category) Category {
	c := Category{
		ID:          r.ID,
		Name:        r.Name,
		Handle:      r.Handle,
		Description: r.Description,
		Active:      r.Active,
		Position:    r.Position,
		CreatedAt:   r.CreatedAt,
	}
	if r.ParentID != nil {
		c.ParentID = *r.ParentID
	}
	return c
}

func productFromEnt(r *ent.Product, variants []*ent.ProductVariant) *Product {
	p := &Product{
		ID:                   r.ID,
		ShortID:              r.ShortID,
		SellerID:             r.SellerID,
		Name:                 r.Name,
		Description:          r.Description,
		Status:               ProductStatus(r.Status),
		CategoryID:           r.CategoryID,
		CategoryName:         r.CategoryName,
		Images:               r.Images,
		Weight:               r.Weight,
		Dimensions:           Dimensions{Length: r.Length, Width: r.Width, Height: r.Height},
		UseVariantDimensions: r.UseVariantDimensions,
		ReviewNote:           r.ReviewNote,
		CreatedAt:            r.CreatedAt,
		UpdatedAt:            r.UpdatedAt,
		Variants:             make([]Variant, len(variants)),
	}
	if r.OptionsOrder != nil {
		p.OptionsOrder = make([]OptionGroup, len(r.OptionsOrder))
		for i, g := range r.OptionsOrder {
			p.OptionsOrder[i] = OptionGroup{Title: g.Title, Values: g.Values}
		}
	}
	p.AttributeValues = make([]AttributeValue, len(r.AttributeValues))
	for i, a := range r.AttributeValues {
		p.AttributeValues[i] = AttributeValue{AttributeID: a.AttributeID, Value: a.Value}
	}
	for i, v := range variants {
		opts := make([]Option, len(v.Options))
		for j, o := range v.Options {
			opts[j] = Option{Name: o.Name, Value: o.Value}
		}
		p.Variants[i] = Variant{
			ID:         v.ID,
			Position:   v.Position,
			Title:      v.Title,
			SKU:        v.Sku,
			Price:      v.Price,
			Stock:      v.StockQuantity,
			Options:    opts,
			Weight:     v.Weight,
			Dimensions: Dimensions{Length: v.Length, Width: v.Width, Height: v.Height},
			Images:     v.Images,
		}
	}
	return p
}

func optionGroupsToDB(gs []OptionGroup) []dbtypes.OptionGroup {
	out := make([]dbtypes.OptionGroup, len(gs))
	for i, g := range gs {
		out[i] = dbtypes.OptionGroup{Title: g.Title, Values: nonNil(g.Values)}
	}
	return out
}

func optionsToDB(os []Option) []dbtypes.VariantOption {
	out := make([]dbtypes.VariantOption, len(os))
	for i, o := range os {
		out[i] = dbtypes.VariantOption{Name: o.Name, Value: o.Value}
	}
	return out
}

func attributeValuesToDB(avs []AttributeValue) []dbtypes.AttributeValue {
	out := make([]dbtypes.AttributeValue, len(avs))
	for i, a := range avs {
		out[i] = dbtypes.AttributeValue{AttributeID: a.AttributeID, Value: a.Value}
	}
	return out
}

// nonNil keeps JSON list columns as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// InTx implements Store.
func (s *EntStore) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.InTx(ctx, s.client, fn)
}
