package wirejson_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

// hostileVariants is a hostile body: n empty variants (200,000 make
// 600 KB, under the 1 MB body cap).
func hostileVariants(n int) []byte {
	return []byte(`{"variants":[` + strings.Repeat(`{},`, n-1) + `{}]}`)
}

// A list longer than its max_items rule stops decoding at the first item too
// many, with the rule's bound in the message; lists within the bound decode.
func TestDecodeStopsAtMaxItems(t *testing.T) {
	var in catalogv1.ProductCreateInput
	err := wirejson.Unmarshal(hostileVariants(200000), &in)
	if e, ok := apierr.As(err); !ok || e.Code != apierr.ValidationError || e.Message != "variants: must contain at most 100 items" {
		t.Fatalf("200,000 variants: %v", err)
	}
	if n := len(in.GetVariants()); n > 100 {
		t.Fatalf("%d variants were built before the bound was noticed", n)
	}
	if err := wirejson.Unmarshal(hostileVariants(100), &catalogv1.ProductCreateInput{}); err != nil {
		t.Fatalf("100 variants (the bound itself): %v", err)
	}
	// A json_array message: the images of an update travel as its list.
	images := `{"images":[` + strings.Repeat(`"https://a.ph/x.jpg",`, 20) + `"https://a.ph/x.jpg"]}`
	err = wirejson.Unmarshal([]byte(images), &catalogv1.ProductUpdateInput{})
	if e, ok := apierr.As(err); !ok || e.Message != "images: must contain at most 20 items" {
		t.Errorf("21 images: %v", err)
	}
	// object_entries: a variant's options arrive as a JSON object.
	var opts []string
	for i := range 11 {
		opts = append(opts, `"k`+strconv.Itoa(i)+`":"v"`)
	}
	err = wirejson.Unmarshal([]byte(`{"variants":[{"options":{`+strings.Join(opts, ",")+`}}]}`), &catalogv1.ProductCreateInput{})
	if e, ok := apierr.As(err); !ok || e.Message != "variants[0].options: must contain at most 10 entries" {
		t.Errorf("11 options: %v", err)
	}
}

// NUL cannot be stored by PostgreSQL; every decoded string that can reach
// storage refuses it with the field's path (it answered 500 on PostgreSQL).
func TestDecodeRefusesNUL(t *testing.T) {
	cases := map[string]string{
		`{"title":"abc\u0000defghi"}`:                                         "title: ",
		`{"description":"\u0000"}`:                                            "description: ",
		`{"category":"100\u00003"}`:                                           "category: ",
		`{"variants":[{"sku":"A\u0000"}]}`:                                    "variants[0].sku: ",
		`{"variants":[{"options":{"Size\u0000":"M"}}]}`:                       "variants[0].options.Size\x00: ",
		`{"variants":[{"options":{"Size":"M\u0000"}}]}`:                       "variants[0].options.Size: ",
		`{"attribute_values":[{"attribute_id":"a","value":"x\u0000"}]}`:       "attribute_values[0].value: ",
		`{"attribute_values":[{"attribute_id":"a","value":{"k\u0000":1}}]}`:   "attribute_values[0].value.k\x00: ",
		`{"attribute_values":[{"attribute_id":"a","value":["ok","\u0000"]}]}`: "attribute_values[0].value[1]: ",
		`{"images":["https://a.example/1.jpg","x\u0000"]}`:                    "images[1]: ",
	}
	for body, wantPrefix := range cases {
		err := wirejson.Unmarshal([]byte(body), &catalogv1.ProductCreateInput{})
		e, ok := apierr.As(err)
		if !ok || e.Code != apierr.ValidationError || !strings.HasPrefix(e.Message, wantPrefix) || !strings.Contains(e.Message, "NUL") {
			t.Errorf("%s: got %v, want VALIDATION_ERROR %q…NUL", body, err, wantPrefix)
		}
	}
	// Invalid UTF-8 in a body reads as U+FFFD, which is storable.
	var in catalogv1.ProductCreateInput
	if err := wirejson.Unmarshal([]byte("{\"title\":\"abc\xff\xc0\xafdefg\"}"), &in); err != nil || in.GetTitle() != "abc\uFFFD\uFFFD\uFFFDdefg" {
		t.Errorf("invalid UTF-8: %q %v", in.GetTitle(), err)
	}
}

// An error names the path the client sent, but no longer than a bound: a
// megabyte-long key does not make a megabyte-long message.
func TestDecodeErrorPathIsBounded(t *testing.T) {
	key := strings.Repeat("k", 500000)
	err := wirejson.Unmarshal([]byte(`{"`+key+`":1}`), &catalogv1.ProductCreateInput{})
	if e, ok := apierr.As(err); !ok || len(e.Message) > 512 || !strings.HasSuffix(e.Message, "…: unknown field") {
		t.Fatalf("%d bytes", len(err.Error()))
	}
}

// A string query value must be text: percent-encoding can carry NUL and
// invalid UTF-8 (%00, %FF, %C0%AF), which are BAD_REQUEST.
func TestParseQueryRefusesNonText(t *testing.T) {
	for _, q := range []string{"cursor=%00", "cursor=%FF", "cursor=%C0%AF", "cursor=ab%00cd"} {
		v, _ := url.ParseQuery(q)
		err := wirejson.ParseQuery(&ordersv1.ListOrdersRequest{}, v, nil)
		if apierr.CodeOf(err) != apierr.BadRequest || !strings.HasPrefix(err.(*apierr.Error).Message, "cursor: ") {
			t.Errorf("%s: got %v, want BAD_REQUEST naming cursor", q, err)
		}
	}
}

func BenchmarkUnmarshalHostileVariants(b *testing.B) {
	body := hostileVariants(200000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		_ = wirejson.Unmarshal(body, &catalogv1.ProductCreateInput{})
	}
}
