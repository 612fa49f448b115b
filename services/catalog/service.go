// Package catalog is core's catalog service: the category tree, category
// attributes, and a seller's products.
//
// Layers, outermost first: server.go (gRPC, proto in and out) → service.go
// and bulk.go (use cases, domain types only; the product input rules live in
// the productinput package, shared by create, update and bulk) → store.go
// (the storage interface) → store_ent.go (its ent implementation, the only
// file importing ent). convert.go maps domain ↔ proto.
//
// Decisions the contract leaves open:
//
//   - Category order: categories carry a global pre-order position; the
//     listing is ORDER BY position, id, so parents precede their children and
//     the keyset cursor is (position, id) on its index. A category is listed
//     only when it and all its ancestors are active.
//   - Attributes are inherited: a category's attributes are those of its
//     ancestors (root first) followed by its own, each in position order.
//     Shared attributes such as Brand are defined once on a root.
//   - Product category checks, in order: unknown id → CATEGORY_NOT_FOUND (the
//     message says to send an id, not a name); the category or an ancestor is
//     inactive → CATEGORY_NOT_FOUND, because it is not in the category list
//     and the remedy is the same (re-map from the list); the category has
//     active children → VALIDATION_ERROR, because the id is known and valid,
//     only not acceptable for a product.
//   - Dimensions with use_variant_dimensions: product weight is the largest
//     variant weight and each product dimension the largest of that dimension
//     over the variants (the parcel the biggest variant needs). Otherwise a
//     variant's missing figures default to the product's.
//   - Variant images default to the product images and are stored
//     explicitly; a later product image update does not touch them.
//   - Variant options are stored in options_order group order.
//   - Update of an under_review product → 422 PRODUCT_UNDER_REVIEW; of an
//     archived one → 404 NOT_FOUND (archived is what delete leaves behind;
//     404 is in the update operation's status set, 422 is not).
//   - Update that changes nothing leaves updated_at alone, so partners that
//     sync on updated_at are not sent round in circles.
//   - Sending the product's current category id again is a no-op, even if
//     that category has since gained children.
package catalog

import (
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"time"

	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/internal/pagination"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/catalog/productinput"
	"github.com/mallplatform/partnerapi/services/events"
)

// categoryListURL is where messages send partners for valid category ids.
const categoryListURL = productinput.CategoryListURL

// Service holds the catalog's use cases.
type Service struct {
	store   Store
	clock   clock.Business
	cursors *pagination.Cursors
	events  *events.Recorder
	holds   OrderHolds
	// imagePrefix: Config.ImagePrefix.
	imagePrefix string
}

// Config is what a Service is built from.
type Config struct {
	Store Store
	// Business stamps created_at and updated_at (default: the system
	// clock).
	Business clock.Business
	// Cursors signs and reads listing cursors: core's replicas share one
	// (platform.NewCore derives it from the secret key); nil draws a random
	// key, good only for its own cursors.
	Cursors *pagination.Cursors
	// Events records every change in the change's transaction; a Service
	// without it refuses to write.
	Events *events.Recorder
	// Holds tells whether unshipped orders hold a product's variants; a
	// Service without it refuses to delete products.
	Holds OrderHolds

	// ImagePrefix is the url prefix of the deployment's own uploads
	// (POST /open/v1/admin/uploads), accepted in images besides https
	// URLs: in dev it is the gateway's plain http address. Empty: https
	// URLs only.
	ImagePrefix string
}

// NewService returns the catalog service.
func NewService(cfg Config) *Service {
	if cfg.Business == nil {
		cfg.Business = clock.System{}
	}
	if cfg.Cursors == nil {
		cfg.Cursors = pagination.RandomCursors()
	}
	return &Service{store: cfg.Store, clock: cfg.Business, cursors: cfg.Cursors, events: cfg.Events,
		holds: cfg.Holds, imagePrefix: cfg.ImagePrefix}
}

// record writes p's event on the transaction ctx carries.
func (s *Service) record(ctx context.Context, t events.Type, p *Product, at time.Time) error {
	_, err := s.events.Record(ctx, events.Change{SellerID: p.SellerID, Type: t, ResourceID: p.ID, At: at,
		View: productToProto(p)})
	return err
}

// ProductInput is a product to create, as the partner sent it; its rules
// live in productinput.
type ProductInput = productinput.Input

// OptionInput is one option-group → value pair of a variant.
type OptionInput = productinput.OptionInput

// VariantInput is one variant of a product to create.
type VariantInput = productinput.VariantInput

// ProductUpdate holds the fields an update sends; nil means "not sent".
type ProductUpdate struct {
	Title       *string
	Description *string
	Category    *string
	// Images, when sent, replaces the whole set.
	Images *[]string
}

// ListCategories lists the category tree flattened, parents before their
// children.
func (s *Service) ListCategories(ctx context.Context, req pagination.Request) (pagination.Page[Category], error) {
	filter := pagination.Fingerprint("categories", "position,id")
	w, err := pagination.Resolve[pagination.NumKey](s.cursors, req, filter)
	if err != nil {
		return pagination.Page[Category]{}, err
	}
	cats, more, err := s.store.ListCategories(ctx, w)
	if err != nil {
		return pagination.Page[Category]{}, err
	}
	total, err := s.store.CountCategories(ctx)
	if err != nil {
		return pagination.Page[Category]{}, err
	}
	return pagination.NewPage(w, cats, more, total, func(c Category) pagination.NumKey {
		return pagination.NumKey{N: int64(c.Position), ID: c.ID}
	}), nil
}

// ListCategoryAttributes returns the attributes a product in the category
// takes: inherited ones first (root downwards), then the category's own. A
// category that is unknown or not listed is NOT_FOUND.
func (s *Service) ListCategoryAttributes(ctx context.Context, id string) ([]Attribute, error) {
	chain, err := productinput.Chain(ctx, s.store, id)
	if errors.Is(err, ErrNotFound) {
		return nil, apierr.Newf(apierr.NotFound, "category %q not found; ids come from %s", id, categoryListURL)
	}
	if err != nil {
		return nil, err
	}
	for _, c := range chain {
		if !c.Active {
			return nil, apierr.Newf(apierr.NotFound, "category %q not found; ids come from %s", id, categoryListURL)
		}
	}
	return productinput.AttributesOf(ctx, s.store, chain)
}

// CreateProduct creates a product in status proposed for the call's seller.
func (s *Service) CreateProduct(ctx context.Context, in ProductInput) (*Product, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	checked, vs, err := productinput.Check(ctx, s.store, in, s.imagePrefix)
	if err != nil {
		return nil, err
	}
	if err := vs.Err(); err != nil {
		return nil, err
	}
	if err := s.checkSellerSKUs(ctx, sellerID, checked.Variants); err != nil {
		return nil, err
	}
	now := s.clock.Business(ctx).UTC()
	p := newProduct(sellerID, in, checked, now)
	// With 50 random bits a clash is rare (about one insert in 10^8 at ten
	// million products), but the unique index is the arbiter: draw again
	// rather than fail the request.
	for attempt := 0; ; attempt++ {
		p.ShortID = newShortID()
		err = s.store.InTx(ctx, func(ctx context.Context) error {
			if err := s.store.CreateProduct(ctx, p); err != nil {
				return err
			}
			return s.record(ctx, eventsv1.EventType_EVENT_TYPE_PRODUCT_CREATED, p, now)
		})
		if !errors.Is(err, ErrShortIDTaken) || attempt == 4 {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// UpdateProduct changes the title, description, category or images of one of
// the seller's products.
func (s *Service) UpdateProduct(ctx context.Context, id string, upd ProductUpdate) (*Product, error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return nil, err
	}
	if !ids.Valid("prd", id) {
		// Product ids are only ever made by CreateProduct; any other
		// string names nothing, and is not worth a query (nor, holding NUL
		// or invalid UTF-8, storable text for one).
		return nil, notFoundProduct(id)
	}
	if upd.Images != nil {
		var v productinput.Violations
		productinput.CheckImages(&v, "images", *upd.Images, s.imagePrefix)
		if err := v.Err(); err != nil {
			return nil, err
		}
	}
	var leaf *productinput.Leaf
	if upd.Category != nil {
		// Looked up before the write transaction: the lookup reads through the
		// store, which apply must not do. The product is read first so that a
		// missing or read-only product is reported before the category.
		current, err := s.store.GetProduct(ctx, sellerID, id)
		if err != nil {
			return nil, s.productErr(err, id)
		}
		if err := checkWritable(current, id); err != nil {
			return nil, err
		}
		if *upd.Category != current.CategoryID {
			var cv *productinput.Violation
			if leaf, cv, err = productinput.ResolveLeaf(ctx, s.store, "category", *upd.Category); err != nil {
				return nil, err
			}
			if cv != nil {
				return nil, productinput.Violations{*cv}.Err()
			}
		}
	}
	now := s.clock.Business(ctx).UTC()
	var p *Product
	err = s.store.InTx(ctx, func(ctx context.Context) error {
		var changed bool
		var err error
		p, err = s.store.UpdateProduct(ctx, sellerID, id, func(p *Product) (bool, error) {
			c, err := applyUpdate(p, id, upd, leaf, now)
			changed = c
			return c, err
		})
		if err != nil || !changed {
			return err
		}
		return s.record(ctx, eventsv1.EventType_EVENT_TYPE_PRODUCT_UPDATED, p, now)
	})
	if err != nil {
		return nil, s.productErr(err, id)
	}
	return p, nil
}

// applyUpdate applies upd to p, read under the update's lock, and reports
// whether anything changed.
func applyUpdate(p *Product, id string, upd ProductUpdate, leaf *productinput.Leaf, now time.Time) (bool, error) {
	if err := checkWritable(p, id); err != nil {
		return false, err
	}
	changed := false
	if upd.Title != nil && *upd.Title != p.Name {
		p.Name, changed = *upd.Title, true
	}
	if upd.Description != nil && *upd.Description != p.Description {
		p.Description, changed = *upd.Description, true
	}
	if upd.Images != nil && !slices.Equal(*upd.Images, p.Images) {
		p.Images, changed = slices.Clone(*upd.Images), true
	}
	if upd.Category != nil && *upd.Category != p.CategoryID {
		if leaf == nil || leaf.ID != *upd.Category {
			// The category moved between the read above and this locked
			// read; the checks made no longer hold.
			return false, apierr.New(apierr.ConcurrentModification, "the product changed while it was being updated; read it again and retry")
		}
		kept, err := productinput.Recategorise(p.AttributeValues, leaf)
		if err != nil {
			return false, err
		}
		p.CategoryID, p.CategoryName, p.AttributeValues, changed = leaf.ID, leaf.Name, kept, true
	}
	if changed {
		p.UpdatedAt = now
	}
	return changed, nil
}

// ListProducts lists the seller's products, newest first, optionally only
// those in one status.
func (s *Service) ListProducts(ctx context.Context, f ProductFilter, req pagination.Request) (pagination.Page[*Product], error) {
	sellerID, err := principal.RequireSeller(ctx)
	if err != nil {
		return pagination.Page[*Product]{}, err
	}
	// The seller is part of the fingerprint so that a cursor is only good for
	// the seller it was issued to.
	filter := pagination.Fingerprint("products", sellerID, string(f.Status), "created_at desc,id desc")
	w, err := pagination.Resolve[pagination.TimeKey](s.cursors, req, filter)
	if err != nil {
		return pagination.Page[*Product]{}, err
	}
	products, more, err := s.store.ListProducts(ctx, sellerID, f, w)
	if err != nil {
		return pagination.Page[*Product]{}, err
	}
	total, err := s.store.CountProducts(ctx, sellerID, f)
	if err != nil {
		return pagination.Page[*Product]{}, err
	}
	return pagination.NewPage(w, products, more, total, func(p *Product) pagination.TimeKey {
		return pagination.TimeKey{At: p.CreatedAt, ID: p.ID}
	}), nil
}

// productErr maps storage outcomes of a product lookup to the contract.
func (s *Service) productErr(err error, id string) error {
	if errors.Is(err, ErrNotFound) {
		return notFoundProduct(id)
	}
	return err
}

func notFoundProduct(id string) error {
	return apierr.Newf(apierr.NotFound, "product %q not found", id)
}

// checkWritable applies the status rules of partner updates.
func checkWritable(p *Product, id string) error {
	switch p.Status {
	case StatusUnderReview:
		return apierr.New(apierr.ProductUnderReview, "the product is under review and cannot be changed until the review ends")
	case StatusArchived:
		// Archived is what delete leaves; to the partner the product is gone.
		return notFoundProduct(id)
	}
	return nil
}

// shortIDAlphabet has no 0/O or 1/I, so a short id read out over the phone
// to support is unambiguous; 32 symbols give 5 bits per character.
const shortIDAlphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"

// shortIDLength characters of 5 bits each: 50 random bits.
const shortIDLength = 10

func newShortID() string {
	var b [shortIDLength]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("catalog: no randomness: " + err.Error())
	}
	for i := range b {
		b[i] = shortIDAlphabet[b[i]&31]
	}
	return string(b[:])
}
