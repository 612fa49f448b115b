package gateway_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/catalog"
)

// bulkItem is a valid cookware product with SKUs of its own.
func bulkItem(i int) string {
	return `{"title":"Cast iron skillet ` + fmt.Sprint(i) + `","category":"` + catalog.CookwareCategoryID + `",` +
		`"images":["https://img.example.ph/s1.jpg","https://img.example.ph/s2.jpg","https://img.example.ph/s3.jpg"],` +
		`"weight":2400,"length":44,"width":27,"height":6,` +
		`"attribute_values":[{"attribute_id":"` + catalog.AttrCookwareMaterial + `","value":"Cast iron"}],` +
		`"variants":[{"sku":"SKL-` + fmt.Sprint(i) + `-A","price":129900,"stock":20},{"sku":"SKL-` + fmt.Sprint(i) + `-B","price":139900,"stock":5}]}`
}

func bulkBody(from, n int) []byte {
	items := make([]string, n)
	for i := range items {
		items[i] = bulkItem(from + i)
	}
	return []byte(`{"products":[` + strings.Join(items, ",") + `]}`)
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := sdk.Gzip(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

type bulkAnswer struct {
	Data struct {
		Created []struct {
			ProductID string `json:"product_id"`
		} `json:"created"`
		Errors  []map[string]any `json:"errors"`
		Summary struct {
			Total, Succeeded, Failed int
		} `json:"summary"`
	} `json:"data"`
}

func decodeBulk(t *testing.T, r *sdk.Response) bulkAnswer {
	t.Helper()
	var a bulkAnswer
	if r.Status != 200 {
		t.Fatalf("bulk answered %d: %.500s", r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Body, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// The bulk route takes a gzip body: signed as sent (compressed), inflated
// by the gateway after authentication, capped at 10 MiB while inflating.
func TestBulkCreateGzipBody(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true, RequestTimeout: time.Minute})
	c := env.Client(t, "full", 0)

	// 3,000 realistic items are over the 1 MB body cap as plain JSON and
	// well under it compressed. (The 5,000-item batch is tested on both
	// backends in services/catalog and measured through this path by
	// BenchmarkBulkCreate; 3,000 keep this test within core's 10 s
	// deadline under the race detector.)
	const items = 3000
	plain := bulkBody(0, items)
	if len(plain) <= 1<<20 {
		t.Fatalf("%d items in %d bytes: not the case this test is about", items, len(plain))
	}
	wantCode(t, send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: plain}), 413, "PAYLOAD_TOO_LARGE")
	a := decodeBulk(t, send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: plain, Gzip: true}))
	if a.Data.Summary.Succeeded != items || len(a.Data.Created) != items || len(a.Data.Errors) != 0 {
		t.Fatalf("summary %+v, errors %v", a.Data.Summary, a.Data.Errors[:min(3, len(a.Data.Errors))])
	}

	// The signature covers the compressed bytes: signing the plain body and
	// sending it compressed is refused.
	small := bulkBody(10000, 1)
	hr, err := c.NewRequest(ctx, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: small})
	if err != nil {
		t.Fatal(err)
	}
	z := gzipped(t, small)
	hr.Body, hr.ContentLength = io.NopCloser(bytes.NewReader(z)), int64(len(z))
	hr.Header.Set("Content-Encoding", "gzip")
	wantCode(t, do(t, hr), 401, "INVALID_SIGNATURE")

	// A gzip bomb: 20 MiB of zeros (a few KiB compressed) is refused once
	// 10 MiB have been inflated.
	bomb := gzipped(t, append([]byte(`{"products":[`), make([]byte, 20<<20)...))
	r := send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: bomb,
		ExtraHeaders: http.Header{"Content-Encoding": {"gzip"}}})
	wantCode(t, r, 413, "PAYLOAD_TOO_LARGE")

	// Not gzip at all.
	r = send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: small,
		ExtraHeaders: http.Header{"Content-Encoding": {"gzip"}}})
	wantCode(t, r, 400, "BAD_REQUEST")
	// Truncated: the stream ends before its checksum.
	r = send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: z[:len(z)-6],
		ExtraHeaders: http.Header{"Content-Encoding": {"gzip"}}})
	wantCode(t, r, 400, "BAD_REQUEST")
	// Another coding.
	r = send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: small,
		ExtraHeaders: http.Header{"Content-Encoding": {"br"}}})
	wantCode(t, r, 400, "BAD_REQUEST")
	// A route that does not declare gzip.
	r = send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products", Body: []byte(bulkItem(10001)), Gzip: true})
	wantCode(t, r, 400, "BAD_REQUEST")
}

// Idempotency-Key is honoured on bulk create: the replay answers the first
// answer and creates nothing more; a gzip and a plain copy of the same
// request are the same request.
func TestBulkCreateIdempotent(t *testing.T) {
	env := testenv.Start(t, testenv.Options{Postgres: true})
	c := env.Client(t, "full", 0)
	total := func() int {
		list := send(t, c, sdk.Request{Method: "GET", Path: "/open/v1/products?limit=1"})
		var l struct {
			Meta struct{ Total int } `json:"meta"`
		}
		if err := json.Unmarshal(list.Body, &l); err != nil {
			t.Fatalf("listing: %.300s", list.Body)
		}
		return l.Meta.Total
	}
	seeded := total()
	body := bulkBody(20000, 3)
	key := http.Header{"Idempotency-Key": {"bulk-create-0001"}}
	first := send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: body, ExtraHeaders: key, Gzip: true})
	a := decodeBulk(t, first)
	if a.Data.Summary.Succeeded != 3 {
		t.Fatalf("%+v", a.Data.Summary)
	}
	again := send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: body, ExtraHeaders: key})
	if again.Status != 200 || again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, first.Body) {
		t.Fatalf("replay: %d %q %.300s", again.Status, again.Header.Get("Idempotent-Replayed"), again.Body)
	}
	if n := total(); n != seeded+3 {
		t.Fatalf("%d products after a replay, %d before the batch of 3", n, seeded)
	}
	// Without a key, the same batch again is all duplicates: 200 with every
	// item in errors.
	dup := decodeBulk(t, send(t, c, sdk.Request{Method: "POST", Path: "/open/v1/products/bulk", Body: body}))
	if dup.Data.Summary.Failed != 3 || dup.Data.Errors[0]["code"] != "DUPLICATE" || dup.Data.Errors[0]["field"] != "variants[0].sku" {
		t.Fatalf("%+v %v", dup.Data.Summary, dup.Data.Errors)
	}
}
