package sandbox_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/ent/product"
	"github.com/mallplatform/partnerapi/internal/testenv"
)

type productView struct {
	ProductID  string  `json:"product_id"`
	Status     string  `json:"status"`
	ReviewNote *string `json:"review_note"`
}

// proposedOf returns the ids of a seller's seeded products, all proposed.
func proposedOf(t testing.TB, env *testenv.Env, seller string) []string {
	t.Helper()
	ids, err := env.DB.Ent.Product.Query().
		Where(product.SellerID(seller), product.StatusEQ(product.StatusProposed)).
		IDs(context.Background())
	if err != nil || len(ids) < 2 {
		t.Fatalf("seeded proposed products of %s: %v (%v)", seller, ids, err)
	}
	return ids
}

func TestSandboxReviewTool(t *testing.T) {
	for _, pg := range []bool{false, true} {
		t.Run(fmt.Sprintf("postgres=%v", pg), func(t *testing.T) {
			env := testenv.Start(t, testenv.Options{Postgres: pg})
			full := env.Client(t, "full", 0)
			ids := proposedOf(t, env, env.Creds.Sellers[0].SellerID)
			review := func(id, body string) (int, string, productView) {
				r := call(t, full, "POST", "/open/v1/sandbox/products/"+id+"/review", body)
				if r.Status != http.StatusOK {
					return r.Status, code(r), productView{}
				}
				return r.Status, "", decode[productView](t, r, http.StatusOK)
			}

			// Approve: through start review to live, an event per step.
			st, c, p := review(ids[0], `{"outcome":"approve"}`)
			if st != 200 || p.Status != "live" || p.ReviewNote != nil {
				t.Fatalf("approve: %d %s %+v", st, c, p)
			}
			if got := strings.Join(eventTypes(t, env, ids[0]), ","); !strings.HasSuffix(got, "product.status_changed,product.status_changed") {
				t.Errorf("events of an approval: %s", got)
			}
			// Over: a second review is an invalid transition.
			if st, c, _ := review(ids[0], `{"outcome":"reject","note":"late"}`); st != 422 || c != "INVALID_TRANSITION" {
				t.Errorf("reviewing a live product: %d %s", st, c)
			}

			// Reject: delisted, with the note the partner reads on the product.
			note := "Title names a brand the images do not show"
			st, c, p = review(ids[1], fmt.Sprintf(`{"outcome":"reject","note":%q}`, note))
			if st != 200 || p.Status != "delisted" || p.ReviewNote == nil || *p.ReviewNote != note {
				t.Fatalf("reject: %d %s %+v", st, c, p)
			}
			read := decode[productView](t, call(t, full, "GET", "/open/v1/products/"+ids[1], ""), http.StatusOK)
			if read.ReviewNote == nil || *read.ReviewNote != note {
				t.Errorf("the partner's read of a rejected product: %+v", read)
			}

			// Another shop's product is not found; malformed bodies are 400.
			other := proposedOf(t, env, env.Creds.Sellers[1].SellerID)[0]
			if st, c, _ := review(other, `{"outcome":"approve"}`); st != 404 || c != "NOT_FOUND" {
				t.Errorf("another shop's product: %d %s", st, c)
			}
			for _, bad := range []string{``, `{}`, `{"outcome":"maybe"}`, `{"outcome":"approve","extra":1}`, `{"outcome":"approve","note":""}`} {
				if st, _, _ := review(ids[2%len(ids)], bad); st != 400 {
					t.Errorf("body %q: %d", bad, st)
				}
			}
			// Live credentials never reach a sandbox tool.
			r := call(t, env.Client(t, "live", -1), "POST", "/open/v1/sandbox/products/"+ids[0]+"/review", `{"outcome":"approve"}`)
			if r.Status != 403 || code(r) != "SANDBOX_ONLY" {
				t.Errorf("live credentials: %d %s", r.Status, r.Body)
			}
		})
	}
}
