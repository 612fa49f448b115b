package catalog_test

import (
	"testing"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// ownUploads is a dev deployment's upload prefix: plain http, the
// gateway's own address.
const ownUploads = "http://127.0.0.1:8080/uploads/"

// A product's images name https URLs or the deployment's own uploads; any
// other http address, or a path below the prefix, stays refused.
func TestImagesAcceptTheDeploymentsOwnUploads(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d, func(c *catalog.Config) { c.ImagePrefix = ownUploads })
		own := ownUploads + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.jpg"

		in := smartphone()
		in.Images = []string{own, "https://img.example.ph/b.jpg"}
		in.Variants[0].Images = []string{own}
		p := h.mustCreate(t, sellerA, in)
		if p.GetImages()[0] != own || p.GetVariants()[0].GetImages()[0] != own {
			t.Fatalf("created %v / %v", p.GetImages(), p.GetVariants()[0].GetImages())
		}
		if got, err := h.update(as(sellerA), p.GetProductId(), &catalogv1.ProductUpdateInput{Images: urls(own)}); err != nil || got.GetImages()[0] != own {
			t.Fatalf("update with an own upload: %v %v", err, got.GetImages())
		}

		for name, image := range map[string]string{
			"the prefix alone":          ownUploads,
			"another http address":      "http://127.0.0.1:8081/uploads/x.jpg",
			"another path on that host": "http://127.0.0.1:8080/open/v1/x.jpg",
			"a path below the prefix":   ownUploads + "a/b.jpg",
			"a query after the prefix":  ownUploads + "?x=1",
		} {
			t.Run(name, func(t *testing.T) {
				in := smartphone()
				in.Images = []string{image}
				_, err := h.create(as(sellerA), in)
				wantCode(t, err, apierr.ValidationError, "images[0]: must be an https URL with a host")
			})
		}
	})
	// Without uploads configured, the same url is an http URL like any.
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		h := newHarness(t, d)
		in := smartphone()
		in.Images = []string{ownUploads + "x.jpg"}
		_, err := h.create(as(sellerA), in)
		wantCode(t, err, apierr.ValidationError, "images[0]")
	})
}
