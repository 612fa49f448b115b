package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/ent/productvariant"
)

// FindVariants implements InventoryStore.
func (s *EntStore) FindVariants(ctx context.Context, sellerID string, ids, skus []string) ([]VariantRef, error) {
	if sellerID == "" || len(ids)+len(skus) == 0 {
		return nil, nil
	}
	rows, err := s.db(ctx).ProductVariant.Query().
		Where(
			productvariant.HasProductWith(product.SellerID(sellerID), product.StatusNEQ(product.StatusArchived)),
			productvariant.Or(productvariant.IDIn(ids...), productvariant.SkuIn(skus...)),
		).
		Order(productvariant.ByID()).
		Select(productvariant.FieldID, productvariant.FieldProductID, productvariant.FieldSku).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("catalog: find variants: %w", err)
	}
	out := make([]VariantRef, len(rows))
	for i, r := range rows {
		out[i] = VariantRef{ID: r.ID, ProductID: r.ProductID, SKU: r.Sku}
	}
	return out, nil
}

// GetVariant implements InventoryStore.
func (s *EntStore) GetVariant(ctx context.Context, sellerID, id string) (VariantState, error) {
	r, err := s.db(ctx).ProductVariant.Query().
		Where(productvariant.ID(id), productvariant.HasProductWith(product.SellerID(sellerID))).
		WithProduct(func(q *ent.ProductQuery) { q.Select(product.FieldID, product.FieldStatus) }).
		Only(ctx)
	if ent.IsNotFound(err) {
		return VariantState{}, ErrNotFound
	}
	if err != nil {
		return VariantState{}, fmt.Errorf("catalog: get variant: %w", err)
	}
	return VariantState{ID: r.ID, ProductID: r.ProductID, ProductStatus: ProductStatus(r.Edges.Product.Status),
		SKU: r.Sku, Stock: r.StockQuantity, Price: r.Price}, nil
}

// TouchProducts implements InventoryStore. Products are written one at a
// time in id order, so two requests touching the same products lock them in
// the same order.
func (s *EntStore) TouchProducts(ctx context.Context, sellerID string, ids []string, at time.Time) error {
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	for _, id := range sorted {
		if err := s.db(ctx).Product.Update().
			Where(product.ID(id), product.SellerID(sellerID)).
			SetUpdatedAt(at).
			Exec(ctx); err != nil {
			return fmt.Errorf("catalog: touch product: %w", err)
		}
	}
	return nil
}

// ChangeVariant implements InventoryStore.
//
// On PostgreSQL it is one statement: a CTE locks the variant (FOR UPDATE,
// the latest committed version) and keeps its values from before, and the
// UPDATE joined to it applies the change only where the guards hold,
// returning both the old and the new values. Concurrent changes of one
// variant queue on its row lock and each sees the previous one's result, so
// none is lost and the guards (stock + adjust >= 0, the expected quantity)
// judge the stock as it is.
//
// SQLite cannot return the joined row's values from an UPDATE, so the
// values before are read first; the platform's SQLite transactions hold the
// database's write lock from BEGIN (IMMEDIATE), so nothing can change the
// variant between that read and the conditional UPDATE, which alone decides.
func (s *EntStore) ChangeVariant(ctx context.Context, sellerID string, c VariantChange) (VariantChanged, error) {
	if c.SetStock != nil && c.AdjustStock != nil {
		return VariantChanged{}, errors.New("catalog: a variant change sets or adjusts its stock, not both")
	}
	if c.SetStock == nil && c.AdjustStock == nil && c.SetPrice == nil {
		return VariantChanged{}, errors.New("catalog: a variant change changes something")
	}
	var out VariantChanged
	err := s.InTx(ctx, func(ctx context.Context) error {
		var err error
		if s.lockRows {
			out, err = s.changeVariantPostgres(ctx, sellerID, c)
		} else {
			out, err = s.changeVariantSQLite(ctx, sellerID, c)
		}
		return err
	})
	return out, err
}

// variantFilter is the WHERE clause naming the seller's variant c changes,
// on a product in a status that takes changes; col qualifies its columns.
func variantFilter(sellerID string, c VariantChange, col func(string) string) (string, []any) {
	refused := []any{string(StatusArchived)}
	for _, st := range c.Refuse {
		if st != StatusArchived {
			refused = append(refused, string(st))
		}
	}
	w := col("id") + " = ? AND " + col("product_id") + " IN (SELECT id FROM products WHERE seller_id = ? AND status NOT IN (" +
		placeholders(len(refused)) + "))"
	args := append([]any{c.VariantID, sellerID}, refused...)
	if c.ProductID != "" {
		w += " AND " + col("product_id") + " = ?"
		args = append(args, c.ProductID)
	}
	return w, args
}

// changeSet is the SET list and the guards of c on the table qualified by
// col (the SET targets are never qualified).
func changeSet(c VariantChange, col func(string) string) (set string, setArgs []any, guard string, guardArgs []any) {
	var sets, guards []string
	switch {
	case c.SetStock != nil:
		sets = append(sets, "stock_quantity = ?")
		setArgs = append(setArgs, *c.SetStock)
	case c.AdjustStock != nil:
		sets = append(sets, "stock_quantity = "+col("stock_quantity")+" + ?")
		setArgs = append(setArgs, *c.AdjustStock)
		guards = append(guards, col("stock_quantity")+" IS NOT NULL",
			col("stock_quantity")+" + ? >= 0", col("stock_quantity")+" + ? <= ?")
		guardArgs = append(guardArgs, *c.AdjustStock, *c.AdjustStock, int64(MaxStock))
	}
	if c.SetPrice != nil {
		sets = append(sets, "price = ?")
		setArgs = append(setArgs, *c.SetPrice)
	}
	if c.ExpectedStock != nil {
		guards = append(guards, col("stock_quantity")+" = ?")
		guardArgs = append(guardArgs, *c.ExpectedStock)
	}
	guard = strings.Join(guards, " AND ")
	if guard == "" {
		guard = "TRUE"
	}
	return strings.Join(sets, ", "), setArgs, guard, guardArgs
}

func (s *EntStore) changeVariantPostgres(ctx context.Context, sellerID string, c VariantChange) (VariantChanged, error) {
	filter, filterArgs := variantFilter(sellerID, c, func(n string) string { return n })
	set, setArgs, guard, guardArgs := changeSet(c, func(n string) string { return "v." + n })
	q := "WITH old AS (SELECT id, stock_quantity, price FROM product_variants WHERE " + filter + " FOR UPDATE) " +
		"UPDATE product_variants AS v SET " + set + " FROM old WHERE v.id = old.id AND " + guard +
		" RETURNING v.product_id, v.sku, old.stock_quantity, v.stock_quantity, old.price, v.price"
	args := append(append(filterArgs, setArgs...), guardArgs...)
	var out VariantChanged
	var sku sql.NullString
	var stockBefore, stockAfter, priceBefore, priceAfter sql.NullInt64
	found, err := s.queryRow(ctx, rebindDollar(q), args, &out.ProductID, &sku, &stockBefore, &stockAfter, &priceBefore, &priceAfter)
	if err != nil {
		return VariantChanged{}, fmt.Errorf("catalog: change variant: %w", err)
	}
	if !found {
		return VariantChanged{}, ErrNotApplied
	}
	out.SKU, out.StockBefore, out.StockAfter = nullString(sku), nullInt(stockBefore), nullInt(stockAfter)
	out.PriceBefore, out.PriceAfter = nullInt(priceBefore), nullInt(priceAfter)
	return out, nil
}

func (s *EntStore) changeVariantSQLite(ctx context.Context, sellerID string, c VariantChange) (VariantChanged, error) {
	plain := func(n string) string { return n }
	filter, filterArgs := variantFilter(sellerID, c, plain)
	var stockBefore, priceBefore sql.NullInt64
	found, err := s.queryRow(ctx, "SELECT stock_quantity, price FROM product_variants WHERE "+filter, filterArgs,
		&stockBefore, &priceBefore)
	if err != nil {
		return VariantChanged{}, fmt.Errorf("catalog: change variant: %w", err)
	}
	if !found {
		return VariantChanged{}, ErrNotApplied
	}
	set, setArgs, guard, guardArgs := changeSet(c, plain)
	q := "UPDATE product_variants SET " + set + " WHERE " + filter + " AND " + guard +
		" RETURNING product_id, sku, stock_quantity, price"
	args := append(append(setArgs, filterArgs...), guardArgs...)
	var out VariantChanged
	var sku sql.NullString
	var stockAfter, priceAfter sql.NullInt64
	found, err = s.queryRow(ctx, q, args, &out.ProductID, &sku, &stockAfter, &priceAfter)
	if err != nil {
		return VariantChanged{}, fmt.Errorf("catalog: change variant: %w", err)
	}
	if !found {
		return VariantChanged{}, ErrNotApplied
	}
	out.SKU, out.StockBefore, out.StockAfter = nullString(sku), nullInt(stockBefore), nullInt(stockAfter)
	out.PriceBefore, out.PriceAfter = nullInt(priceBefore), nullInt(priceAfter)
	return out, nil
}

// queryRow runs q on the context's transaction and scans its first row;
// found is false when it returned none.
func (s *EntStore) queryRow(ctx context.Context, q string, args []any, dest ...any) (found bool, err error) {
	rows, err := s.db(ctx).QueryContext(ctx, q, args...)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return false, rows.Err()
	}
	if err := rows.Scan(dest...); err != nil {
		return false, err
	}
	return true, rows.Close()
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// rebindDollar numbers the ? placeholders of q as PostgreSQL's $1, $2, ...
// (the statements here hold no ? in literals).
func rebindDollar(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func nullInt(v sql.NullInt64) *int64 {
	if !v.Valid {
		return nil
	}
	return &v.Int64
}

func nullString(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	return &v.String
}
