package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/ent/productvariant"
	"github.com/mallplatform/partnerapi/internal/db"
)

// maxShortIDDraws bounds the redraws of clashing short ids. With 50 random
// bits a clash is about one product in 10^8 at ten million products; five
// rounds in a row are beyond any plausible luck.
const maxShortIDDraws = 5

// lookupChunk keeps IN lists within SQLite's 32,766 bind parameters.
const lookupChunk = 5000

// SKUsInUse implements Store.
func (s *EntStore) SKUsInUse(ctx context.Context, sellerID string, skus []string) (map[string]string, error) {
	out := map[string]string{}
	c := s.db(ctx)
	for start := 0; start < len(skus); start += lookupChunk {
		chunk := skus[start:min(start+lookupChunk, len(skus))]
		rows, err := c.ProductVariant.Query().
			Where(productvariant.SkuIn(chunk...),
				productvariant.HasProductWith(product.SellerID(sellerID), product.StatusNEQ(product.StatusArchived))).
			Select(productvariant.FieldSku, productvariant.FieldProductID).
			All(ctx)
		if err != nil {
			return nil, fmt.Errorf("catalog: find SKUs in use: %w", err)
		}
		for _, r := range rows {
			if r.Sku != nil {
				out[*r.Sku] = r.ProductID
			}
		}
	}
	return out, nil
}

// CreateProducts implements Store: one transaction (ctx's when it carries
// one), a fixed number of statements whatever the batch size.
//
// Short ids: the drawn ids are looked up in one query first and the taken
// ones redrawn, so a clash with an existing product costs a redraw, not the
// batch. That check is exact on SQLite, whose writers are serialised (BEGIN
// IMMEDIATE). On PostgreSQL another transaction may commit the same short id
// between check and insert; copyProducts then rolls its COPY back to a
// savepoint (which leaves the transaction usable, where the unique
// violation alone would abort it), redraws and copies again.
func (s *EntStore) CreateProducts(ctx context.Context, ps []*Product, newShortID func() string) error {
	if len(ps) == 0 {
		return nil
	}
	err := db.InTx(ctx, s.client, func(ctx context.Context) error {
		c := db.Client(ctx, s.client)
		if err := s.freeShortIDs(ctx, c, ps, newShortID); err != nil {
			return err
		}
		if s.lockRows {
			return s.copyProducts(ctx, c, ps, newShortID)
		}
		return insertProductsChunked(ctx, c, ps)
	})
	if err != nil {
		return fmt.Errorf("catalog: create products: %w", err)
	}
	return nil
}

// freeShortIDs redraws the short ids that repeat inside the batch or that an
// existing product holds.
func (s *EntStore) freeShortIDs(ctx context.Context, c *ent.Client, ps []*Product, newShortID func() string) error {
	pending := ps
	for round := 0; len(pending) > 0; round++ {
		if round == maxShortIDDraws {
			return ErrShortIDTaken
		}
		idsToCheck := make([]string, len(pending))
		for i, p := range pending {
			idsToCheck[i] = p.ShortID
		}
		taken := map[string]bool{}
		for start := 0; start < len(idsToCheck); start += lookupChunk {
			found, err := c.Product.Query().
				Where(product.ShortIDIn(idsToCheck[start:min(start+lookupChunk, len(idsToCheck))]...)).
				Select(product.FieldShortID).Strings(ctx)
			if err != nil {
				return err
			}
			for _, id := range found {
				taken[id] = true
			}
		}
		var again []*Product
		inBatch := make(map[string]bool, len(ps))
		for _, p := range ps {
			if taken[p.ShortID] || inBatch[p.ShortID] {
				p.ShortID = newShortID()
				again = append(again, p)
			}
			inBatch[p.ShortID] = true
		}
		pending = again
	}
	return nil
}

// productColumns are the products columns the bulk insert writes, in order.
var productColumns = []string{"id", "short_id", "seller_id", "name", "description", "status", "category_id",
	"category_name", "images", "weight", "length", "width", "height", "use_variant_dimensions", "options_order",
	"attribute_values", "created_at", "updated_at"}

// variantColumns are the product_variants columns the bulk insert writes, in
// order.
var variantColumns = []string{"id", "product_id", "position", "title", "sku", "price", "stock_quantity", "options",
	"weight", "length", "width", "height", "images"}

// shortIDIndex is the unique index on products.short_id; uniqueViolation
// is PostgreSQL's code for a row it refuses.
const (
	shortIDIndex    = "products_short_id_key"
	uniqueViolation = "23505"
)

// copyProducts writes the products, then their variants, with one COPY
// each on the transaction's own connection (PostgreSQL parses COPY's binary
// rows several times faster than the same rows as INSERT parameters).
func (s *EntStore) copyProducts(ctx context.Context, c *ent.Client, ps []*Product, newShortID func() string) error {
	rows, err := productRows(ps)
	if err != nil {
		return err
	}
	for round := 1; ; round++ {
		err := db.PgxConn(ctx, func(conn *pgx.Conn) error {
			return copyOrRollBack(ctx, conn, "products", productColumns, rows)
		})
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != uniqueViolation || pgErr.ConstraintName != shortIDIndex {
			if err != nil {
				return err
			}
			break
		}
		// Another transaction committed one of the drawn short ids after
		// freeShortIDs looked: look again, now that it shows.
		if round == maxShortIDDraws {
			return ErrShortIDTaken
		}
		if err := s.freeShortIDs(ctx, c, ps, newShortID); err != nil {
			return err
		}
		for i, p := range ps {
			rows[i][1] = p.ShortID
		}
	}
	vrows, err := variantRows(ps)
	if err != nil || len(vrows) == 0 {
		return err
	}
	return db.PgxConn(ctx, func(conn *pgx.Conn) error {
		_, err := conn.CopyFrom(ctx, pgx.Identifier{"product_variants"}, variantColumns, pgx.CopyFromRows(vrows))
		return err
	})
}

// copyOrRollBack copies rows into table behind a savepoint, and rolls back
// to it when the copy fails, so that the transaction stays usable.
func copyOrRollBack(ctx context.Context, conn *pgx.Conn, table string, columns []string, rows [][]any) error {
	if _, err := conn.Exec(ctx, "SAVEPOINT bulk_copy"); err != nil {
		return err
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows)); err != nil {
		if _, rerr := conn.Exec(ctx, "ROLLBACK TO SAVEPOINT bulk_copy"); rerr != nil {
			return errors.Join(err, rerr)
		}
		return err
	}
	_, err := conn.Exec(ctx, "RELEASE SAVEPOINT bulk_copy")
	return err
}

// productRows are the products' rows in productColumns' order. JSON columns
// are sent as their JSON text; a nil options_order as NULL.
func productRows(ps []*Product) ([][]any, error) {
	rows := make([][]any, len(ps))
	for i, p := range ps {
		images, err := json.Marshal(nonNil(p.Images))
		if err != nil {
			return nil, err
		}
		attrs, err := json.Marshal(attributeValuesToDB(p.AttributeValues))
		if err != nil {
			return nil, err
		}
		var options any
		if p.OptionsOrder != nil {
			if options, err = json.Marshal(optionGroupsToDB(p.OptionsOrder)); err != nil {
				return nil, err
			}
		}
		rows[i] = []any{p.ID, p.ShortID, p.SellerID, p.Name, p.Description, string(p.Status), p.CategoryID,
			p.CategoryName, images, p.Weight, p.Dimensions.Length, p.Dimensions.Width, p.Dimensions.Height,
			p.UseVariantDimensions, options, attrs, p.CreatedAt, p.UpdatedAt}
	}
	return rows, nil
}

// variantRows are the variants' rows of every product, in variantColumns'
// order.
func variantRows(ps []*Product) ([][]any, error) {
	var rows [][]any
	for _, p := range ps {
		for _, v := range p.Variants {
			options, err := json.Marshal(optionsToDB(v.Options))
			if err != nil {
				return nil, err
			}
			images, err := json.Marshal(nonNil(v.Images))
			if err != nil {
				return nil, err
			}
			rows = append(rows, []any{v.ID, p.ID, int64(v.Position), v.Title, v.SKU, v.Price, v.Stock, options,
				v.Weight, v.Dimensions.Length, v.Dimensions.Width, v.Dimensions.Height, images})
		}
	}
	return rows, nil
}

// insertProductsChunked writes the products and variants with multi-row
// INSERTs of insertChunk rows (SQLite has no array parameters): a number of
// statements fixed by the batch size, never one per product.
func insertProductsChunked(ctx context.Context, c *ent.Client, ps []*Product) error {
	for start := 0; start < len(ps); start += insertChunk {
		chunk := ps[start:min(start+insertChunk, len(ps))]
		builders := make([]*ent.ProductCreate, len(chunk))
		for i, p := range chunk {
			builders[i] = productCreate(c, p)
		}
		if err := c.Product.CreateBulk(builders...).Exec(ctx); err != nil {
			return err
		}
	}
	var variants []*ent.ProductVariantCreate
	flush := func() error {
		if len(variants) == 0 {
			return nil
		}
		err := c.ProductVariant.CreateBulk(variants...).Exec(ctx)
		variants = variants[:0]
		return err
	}
	for _, p := range ps {
		for _, v := range p.Variants {
			variants = append(variants, variantCreate(c, p.ID, v))
			if len(variants) == insertChunk {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// productCreate is the ent builder of p's row.
func productCreate(c *ent.Client, p *Product) *ent.ProductCreate {
	b := c.Product.Create().
		SetID(p.ID).SetShortID(p.ShortID).SetSellerID(p.SellerID).
		SetName(p.Name).SetDescription(p.Description).
		SetStatus(product.Status(p.Status)).
		SetCategoryID(p.CategoryID).SetCategoryName(p.CategoryName).
		SetImages(nonNil(p.Images)).
		SetWeight(p.Weight).
		SetLength(p.Dimensions.Length).SetWidth(p.Dimensions.Width).SetHeight(p.Dimensions.Height).
		SetUseVariantDimensions(p.UseVariantDimensions).
		SetAttributeValues(attributeValuesToDB(p.AttributeValues)).
		SetCreatedAt(p.CreatedAt).SetUpdatedAt(p.UpdatedAt)
	if p.OptionsOrder != nil {
		b.SetOptionsOrder(optionGroupsToDB(p.OptionsOrder))
	}
	return b
}

// variantCreate is the ent builder of one variant row of product productID.
func variantCreate(c *ent.Client, productID string, v Variant) *ent.ProductVariantCreate {
	return c.ProductVariant.Create().
		SetID(v.ID).SetProductID(productID).SetPosition(v.Position).
		SetTitle(v.Title).
		SetNillableSku(v.SKU).SetNillablePrice(v.Price).SetNillableStockQuantity(v.Stock).
		SetOptions(optionsToDB(v.Options)).
		SetWeight(v.Weight).
		SetLength(v.Dimensions.Length).SetWidth(v.Dimensions.Width).SetHeight(v.Dimensions.Height).
		SetImages(nonNil(v.Images))
}
