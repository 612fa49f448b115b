package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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
// between check and insert; the insert skips such rows (ON CONFLICT
// (short_id) DO NOTHING, which leaves the transaction usable, where a
// unique violation would abort it) and those products are redrawn and
// inserted again before the variants are written.
func (s *EntStore) CreateProducts(ctx context.Context, ps []*Product, newShortID func() string) error {
	if len(ps) == 0 {
		return nil
	}
	err := db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		c := tx.Client()
		if err := s.freeShortIDs(ctx, c, ps, newShortID); err != nil {
			return err
		}
		if s.lockRows {
			return insertProductsPostgres(ctx, c, ps, newShortID)
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

// insertProductsPostgres writes the products with one INSERT ... SELECT FROM
// UNNEST (one array parameter per column, so the statement's size does not
// grow with the batch and no bind-parameter limit applies), then the
// variants the same way.
func insertProductsPostgres(ctx context.Context, c *ent.Client, ps []*Product, newShortID func() string) error {
	pending := ps
	for round := 0; len(pending) > 0; round++ {
		if round == maxShortIDDraws {
			return ErrShortIDTaken
		}
		inserted, err := unnestProducts(ctx, c, pending)
		if err != nil {
			return err
		}
		var again []*Product
		for _, p := range pending {
			if !inserted[p.ID] {
				p.ShortID = newShortID()
				again = append(again, p)
			}
		}
		pending = again
	}
	return unnestVariants(ctx, c, ps)
}

func unnestProducts(ctx context.Context, c *ent.Client, ps []*Product) (map[string]bool, error) {
	n := len(ps)
	var (
		id, shortID, seller, name, desc, status, catID, catName = make([]string, n), make([]string, n), make([]string, n),
			make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		images, attrs                 = make([]string, n), make([]string, n)
		options                       = make([]*string, n)
		weight, length, width, height = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		useVariantDims                = make([]bool, n)
		created, updated              = make([]string, n), make([]string, n)
	)
	for i, p := range ps {
		id[i], shortID[i], seller[i], name[i], desc[i] = p.ID, p.ShortID, p.SellerID, p.Name, p.Description
		status[i], catID[i], catName[i] = string(p.Status), p.CategoryID, p.CategoryName
		var err error
		if images[i], err = jsonText(nonNil(p.Images)); err != nil {
			return nil, err
		}
		if attrs[i], err = jsonText(attributeValuesToDB(p.AttributeValues)); err != nil {
			return nil, err
		}
		if p.OptionsOrder != nil {
			o, err := jsonText(optionGroupsToDB(p.OptionsOrder))
			if err != nil {
				return nil, err
			}
			options[i] = &o
		}
		weight[i], length[i], width[i], height[i] = p.Weight, p.Dimensions.Length, p.Dimensions.Width, p.Dimensions.Height
		useVariantDims[i] = p.UseVariantDimensions
		// Text in RFC 3339 with nanoseconds, read as timestamptz: exact to
		// the microsecond PostgreSQL keeps, whatever the session's zone.
		created[i], updated[i] = p.CreatedAt.UTC().Format(timestampLayout), p.UpdatedAt.UTC().Format(timestampLayout)
	}
	q := `INSERT INTO products (` + strings.Join(productColumns, ", ") + `)
SELECT id, short_id, seller_id, name, description, status, category_id, category_name, images::jsonb,
	weight, length, width, height, use_variant_dimensions, options_order::jsonb, attribute_values::jsonb,
	created_at::timestamptz, updated_at::timestamptz
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
	$9::text[], $10::float8[], $11::float8[], $12::float8[], $13::float8[], $14::bool[], $15::text[], $16::text[],
	$17::text[], $18::text[])
	AS t(id, short_id, seller_id, name, description, status, category_id, category_name, images, weight, length,
	width, height, use_variant_dimensions, options_order, attribute_values, created_at, updated_at)
ON CONFLICT (short_id) DO NOTHING
RETURNING id`
	rows, err := c.QueryContext(ctx, q, id, shortID, seller, name, desc, status, catID, catName, images,
		weight, length, width, height, useVariantDims, options, attrs, created, updated)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	inserted := make(map[string]bool, n)
	for rows.Next() {
		var got string
		if err := rows.Scan(&got); err != nil {
			return nil, err
		}
		inserted[got] = true
	}
	return inserted, rows.Err()
}

func unnestVariants(ctx context.Context, c *ent.Client, ps []*Product) error {
	var (
		id, productID, title, options, images []string
		position                              []int64
		sku                                   []*string
		price, stock                          []*int64
		weight, length, width, height         []float64
	)
	for _, p := range ps {
		for _, v := range p.Variants {
			o, err := jsonText(optionsToDB(v.Options))
			if err != nil {
				return err
			}
			im, err := jsonText(nonNil(v.Images))
			if err != nil {
				return err
			}
			id, productID, title, options, images = append(id, v.ID), append(productID, p.ID), append(title, v.Title),
				append(options, o), append(images, im)
			position, sku, price, stock = append(position, int64(v.Position)), append(sku, v.SKU), append(price, v.Price),
				append(stock, v.Stock)
			weight, length, width, height = append(weight, v.Weight), append(length, v.Dimensions.Length),
				append(width, v.Dimensions.Width), append(height, v.Dimensions.Height)
		}
	}
	if len(id) == 0 {
		return nil
	}
	q := `INSERT INTO product_variants (id, product_id, position, title, sku, price, stock_quantity, options, weight,
	length, width, height, images)
SELECT id, product_id, position, title, sku, price, stock_quantity, options::jsonb, weight, length, width, height,
	images::jsonb
FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::int8[], $7::int8[], $8::text[],
	$9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::text[])
	AS t(id, product_id, position, title, sku, price, stock_quantity, options, weight, length, width, height, images)`
	_, err := c.ExecContext(ctx, q, id, productID, position, title, sku, price, stock, options,
		weight, length, width, height, images)
	return err
}

// timestampLayout writes instants for PostgreSQL's timestamptz input.
const timestampLayout = "2006-01-02T15:04:05.999999999Z07:00"

func jsonText(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
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
