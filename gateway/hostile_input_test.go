package gateway_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/internal/pagination/paginationtest"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// maxErrorBody bounds an error answer: the envelope around a message of at
// most 1 KiB.
const maxErrorBody = 1536

// A body of 200,000 empty variants (600 KB, under the 1 MB cap) used to
// answer 503 and break the requests of other apps in flight on
// the same gateway→core connection. It now answers 400 with a small body,
// as does a bulk body wrong in 25,000 places, and every request of the
// other app answers 200.
func TestHostileBodiesLeaveOtherPartnersAlone(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	attacker := env.Client(t, "full", 0)
	other := env.Client(t, "limited", 1)
	variants := []byte(`{"variants":[` + strings.Repeat(`{},`, 199999) + `{}]}`)
	bulk := []byte(`{"products":[` + strings.Repeat(`{},`, 4999) + `{}]}`)

	var wg sync.WaitGroup
	hostile := make(chan *sdk.Response, 6)
	for i := range 6 {
		wg.Go(func() {
			req := sdk.Request{Method: "POST", Path: "/open/v1/products", Body: variants}
			if i%2 == 1 {
				req.Path, req.Body = "/open/v1/products/bulk", bulk
			}
			r, err := attacker.DoSigned(ctx, req)
			if err != nil {
				t.Error(err)
				return
			}
			hostile <- r
		})
	}
	statuses := make(chan int, 34)
	for i := range 34 {
		wg.Go(func() {
			path := "/open/v1/orders?limit=5"
			if i%2 == 1 {
				path = "/open/v1/categories?limit=5"
			}
			r, err := other.Do(ctx, "GET", path, nil)
			if err != nil {
				t.Error(err)
				return
			}
			statuses <- r.Status
		})
	}
	wg.Wait()
	close(hostile)
	close(statuses)
	answered := 0
	for r := range hostile {
		answered++
		if strings.Contains(string(r.Body), `"summary"`) {
			// Bulk create: each empty item is an error item of its own.
			if r.Status != 200 || !strings.Contains(string(r.Body), `"failed":5000`) {
				t.Errorf("bulk of 5,000 empty products: %d %.300s", r.Status, r.Body)
			}
			continue
		}
		wantCode(t, r, 400, "VALIDATION_ERROR")
		if len(r.Body) > maxErrorBody {
			t.Errorf("%d-byte error body", len(r.Body))
		}
	}
	if answered != 6 {
		t.Errorf("%d of 6 hostile requests answered", answered)
	}
	failed := 0
	for s := range statuses {
		if s != 200 {
			failed++
		}
	}
	if failed > 0 {
		t.Errorf("%d of 34 requests of the other app did not answer 200", failed)
	}
	// The messages say what was wrong.
	r := send(t, attacker, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: variants})
	if !strings.Contains(string(r.Body), "variants: must contain at most 100 items") {
		t.Errorf("200,000 variants: %s", r.Body)
	}
	r = send(t, attacker, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: bulk})
	if !strings.Contains(string(r.Body), "title: must be at least 8 characters") {
		t.Errorf("bulk of 5,000 empty products: %.500s", r.Body)
	}
}

// On PostgreSQL, NUL and invalid UTF-8 used to answer 500.
// Ids that cannot exist are 404, text fields holding NUL are 400
// VALIDATION_ERROR, and an edited cursor is 400 BAD_REQUEST.
func TestUnstorableTextOnPostgres(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	c := env.Client(t, "full", 0)
	product := `{"title":"Acme Phone X 128GB","description":"Dual SIM","category":"` + catalog.CookwareCategoryID + `",` +
		`"images":["https://img.example.ph/x1.jpg"],"weight":1,"length":1,"width":1,"height":1,` +
		`"attribute_values":[{"attribute_id":"` + catalog.AttrCookwareMaterial + `","value":"Cast iron"}],` +
		`"variants":[{"sku":"ACME-1","price":100,"stock":1}]}`
	created := send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(product)})
	if created.Status != 201 {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	var p struct {
		Data struct {
			ProductID string `json:"product_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(created.Body, &p); err != nil || p.Data.ProductID == "" {
		t.Fatalf("create: %s", created.Body)
	}

	for _, id := range []string{"%00", "%FF", "%C0%AF", "ord_%00", "prd_%FF", "100003%00"} {
		for _, req := range []sdk.Request{
			{Method: "GET", Path: "/open/v1/orders/" + id},
			{Method: "GET", Path: "/open/v1/categories/" + id + "/attributes"},
			{Method: "PUT", Path: "/open/v1/products/" + id, Body: []byte(`{"title":"A valid title"}`)},
		} {
			wantCode(t, send(t, c, req), 404, "NOT_FOUND")
		}
	}
	for _, spoil := range []struct {
		from, to string
		update   string // the same field in an update body, "" when it has none
	}{
		{`"title":"Acme`, `"title":"Acme\u0000`, `{"title":"Acme\u0000 Phone"}`},
		{`"sku":"ACME`, `"sku":"ACME\u0000`, ""},
		{`"category":"`, `"category":"\u0000`, `{"category":"\u0000"}`},
		{`"description":"Dual`, `"description":"\u0000Dual`, `{"description":"\u0000"}`},
		{`"value":"Cast`, `"value":"\u0000Cast`, ""},
	} {
		body := strings.Replace(product, spoil.from, spoil.to, 1)
		r := send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(body)})
		wantCode(t, r, 400, "VALIDATION_ERROR")
		if !strings.Contains(string(r.Body), "NUL") {
			t.Errorf("%s: %s", spoil.to, r.Body)
		}
		if spoil.update != "" {
			r := send(t, c, sdk.Request{Method: "PUT", Path: "/open/v1/products/" + p.Data.ProductID, Body: []byte(spoil.update)})
			wantCode(t, r, 400, "VALIDATION_ERROR")
		}
	}

	first := send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=1"})
	var page struct {
		Meta struct {
			NextCursor string `json:"next_cursor"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(first.Body, &page); err != nil || page.Meta.NextCursor == "" {
		t.Fatalf("first page: %s", first.Body)
	}
	for name, cur := range paginationtest.Tampered(t, page.Meta.NextCursor) {
		t.Run("cursor "+name, func(t *testing.T) {
			wantCode(t, send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=1&cursor=" + url.QueryEscape(cur)}), 400, "BAD_REQUEST")
		})
	}
	for _, raw := range []string{"%00", "%FF", "%C0%AF"} {
		wantCode(t, send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "cursor=" + raw}), 400, "BAD_REQUEST")
	}
	if r := send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/orders", RawQuery: "limit=1&cursor=" + page.Meta.NextCursor}); r.Status != 200 {
		t.Errorf("genuine cursor: %d %s", r.Status, r.Body)
	}
}

// wantCode checks an error answer's status and code. (expectError also
// checks the body's shape with a pattern that does not allow the escaped
// quotes some messages hold, such as a quoted id.)
func wantCode(t *testing.T, r *sdk.Response, status int, code string) {
	t.Helper()
	var env sdk.Envelope
	if err := json.Unmarshal(r.Body, &env); err != nil || r.Status != status || env.Success || env.Error == nil || env.Error.Code != code {
		t.Errorf("got %d %s, want %d %s", r.Status, r.Body, status, code)
	}
}
