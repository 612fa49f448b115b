package wirejson_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	commonv1 "github.com/mallplatform/partnerapi/gen/mp/common/v1"
	eventsv1 "github.com/mallplatform/partnerapi/gen/mp/events/v1"
	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/wirejson"
)

func TestProductWireShape(t *testing.T) {
	ts := timestamppb.New(time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC))
	p := &catalogv1.Product{
		ProductId: "prd_1", ShortId: "ABCDEFGHJK", Name: "Cotton tee shirt", Status: catalogv1.ProductStatus_PRODUCT_STATUS_PROPOSED,
		Price: 9999999999, Stock: 0, Category: "T-Shirts", Thumbnail: "https://img.example/a.jpg",
		Images: []string{"https://img.example/a.jpg"}, Weight: 250, Dimensions: &catalogv1.Dimensions{Length: 30, Width: 20.5, Height: 2},
		Variants:  []*catalogv1.ProductVariant{{VariantId: "var_1", Options: []*catalogv1.VariantOption{{Name: proto.String("Size")}}}},
		CreatedAt: ts, UpdatedAt: ts,
	}
	got, err := wirejson.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"product_id":"prd_1","short_id":"ABCDEFGHJK","name":"Cotton tee shirt","description":"","status":"proposed","sku":"","price":9999999999,"stock":0,"category":"T-Shirts","thumbnail":"https://img.example/a.jpg","images":["https://img.example/a.jpg"],"weight":250,"dimensions":{"length":30,"width":20.5,"height":2},"variants":[{"variant_id":"var_1","sku":null,"price":null,"stock_quantity":null,"options":[{"name":"Size","value":null}],"weight":0,"images":[]}],"created_at":"2026-11-21T08:00:00.000Z","updated_at":"2026-11-21T08:00:00.000Z"}`
	if string(got) != want {
		t.Fatalf("product JSON\n got %s\nwant %s", got, want)
	}
}

func TestOrderPresence(t *testing.T) {
	o := &ordersv1.Order{Id: "ord_1", Status: ordersv1.OrderStatus_ORDER_STATUS_SHIPPED, Total: 150000}
	got, err := wirejson.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	for _, absent := range []string{"buyerEmail", "slaBreached", "shippingChannel", "bookingStatus"} {
		if strings.Contains(s, absent) {
			t.Errorf("%s present in %s", absent, s)
		}
	}
	for _, present := range []string{`"shipByDate":null`, `"total":150000`, `"status":"SHIPPED"`, `"items":[]`, `"sellerId":""`} {
		if !strings.Contains(s, present) {
			t.Errorf("%s missing from %s", present, s)
		}
	}
	o.BuyerEmail = proto.String("a@b.ph")
	o.SlaBreached = proto.Bool(false)
	o.BookingStatus = ordersv1.BookingStatus_BOOKING_STATUS_PENDING_ARRANGE.Enum()
	got, _ = wirejson.Marshal(o)
	for _, present := range []string{`"buyerEmail":"a@b.ph"`, `"slaBreached":false`, `"bookingStatus":"PENDING_ARRANGE"`} {
		if !strings.Contains(string(got), present) {
			t.Errorf("%s missing from %s", present, got)
		}
	}
}

func TestDecodeStrict(t *testing.T) {
	cases := []struct {
		body string
		code apierr.Code
		msg  string
	}{
		{`{"title":`, apierr.InvalidJSON, ""},
		{``, apierr.InvalidJSON, ""},
		{`{"title":"x"} {}`, apierr.InvalidJSON, ""},
		{`{"title":"abc","bogus":1}`, apierr.ValidationError, "bogus: unknown field"},
		{`{"title":1}`, apierr.ValidationError, "title: must be a string"},
		{`{"variants":[{"price":"100"}]}`, apierr.ValidationError, "variants[0].price: must be a number"},
		{`{"variants":[{"price":1.5}]}`, apierr.ValidationError, "variants[0].price: must be an integer"},
		{`{"variants":[{"options":{"Size":1}}]}`, apierr.ValidationError, "variants[0].options.Size: must be a string"},
		{`{"title":"a","title":"b"}`, apierr.ValidationError, "title: duplicate field"},
		{`{"use_variant_dimensions":"yes"}`, apierr.ValidationError, "use_variant_dimensions: must be a boolean"},
		{`[]`, apierr.ValidationError, "body: must be a JSON object"},
		{`{"variants":[{"price":1},{"stock":"x"}]}`, apierr.ValidationError, "variants[1].stock: must be a number"},
		{`{"variants":[{"price":1e30}]}`, apierr.ValidationError, "variants[0].price: is out of range"},
		{`{"weight":"2"}`, apierr.ValidationError, "weight: must be a number"},
		{`{"images":["https://a.ph/1.jpg",1]}`, apierr.ValidationError, "images[1]: must be a string"},
		{`{"images":[null]}`, apierr.ValidationError, "images[0]: must be a string"},
		{`{"use_variant_dimensions":null,"weight":true}`, apierr.ValidationError, "weight: must be a number"},
	}
	for _, c := range cases {
		err := wirejson.Unmarshal([]byte(c.body), &catalogv1.ProductCreateInput{})
		e, ok := apierr.As(err)
		if !ok || e.Code != c.code || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: got %v, want %s containing %q", c.body, err, apierr.Name(c.code), c.msg)
		}
	}
}

func TestDecodeKeepsOptionOrderAndPresence(t *testing.T) {
	var in catalogv1.ProductCreateInput
	body := `{"title":"Cotton tee","variants":[{"price":100,"stock":0,"options":{"Size":"M","Colour":"Red"}}],"attribute_values":[{"attribute_id":"a1","value":["x",1,true,null,{"k":"v"}]}],"weight":2.5}`
	if err := wirejson.Unmarshal([]byte(body), &in); err != nil {
		t.Fatal(err)
	}
	opts := in.GetVariants()[0].GetOptions()
	if len(opts) != 2 || opts[0].GetName() != "Size" || opts[1].GetName() != "Colour" {
		t.Fatalf("options order lost: %v", opts)
	}
	if in.GetVariants()[0].Price == nil || in.GetVariants()[0].GetPrice() != 100 || in.GetVariants()[0].Stock == nil {
		t.Fatalf("presence lost: %v", in.GetVariants()[0])
	}
	if in.Length != nil || in.GetWeight() != 2.5 {
		t.Fatalf("optional doubles: %v", &in)
	}
	var up catalogv1.ProductUpdateInput
	if err := wirejson.Unmarshal([]byte(`{"images":[]}`), &up); err != nil || up.GetImages() == nil {
		t.Fatalf("an empty image list must be present: %v %v", up.GetImages(), err)
	}
	up.Reset()
	if err := wirejson.Unmarshal([]byte(`{}`), &up); err != nil || up.GetImages() != nil {
		t.Fatalf("absent images must stay absent")
	}
}

func TestParseQuery(t *testing.T) {
	var req ordersv1.ListOrdersRequest
	v, _ := url.ParseQuery("status=SHIPPED&limit=5&created_after=2026-01-01T00:00:00%2B08:00&sort=created_at_asc")
	if err := wirejson.ParseQuery(&req, v, nil); err != nil {
		t.Fatal(err)
	}
	if req.GetStatus() != ordersv1.OrderStatus_ORDER_STATUS_SHIPPED || req.GetLimit() != 5 || req.GetSort() != ordersv1.OrderSort_ORDER_SORT_CREATED_AT_ASC ||
		!req.GetCreatedAfter().AsTime().Equal(time.Date(2025, 12, 31, 16, 0, 0, 0, time.UTC)) {
		t.Fatalf("parsed %v", &req)
	}
	for q, code := range map[string]apierr.Code{
		"bogus=1":                 apierr.ValidationError,
		"limit=abc":               apierr.ValidationError,
		"status=OPEN":             apierr.ValidationError,
		"limit=1&limit=2":         apierr.BadRequest,
		"created_after=yesterday": apierr.ValidationError,
	} {
		v, _ := url.ParseQuery(q)
		err := wirejson.ParseQuery(&ordersv1.ListOrdersRequest{}, v, nil)
		if apierr.CodeOf(err) != code {
			t.Errorf("%s: got %v, want %s", q, err, apierr.Name(code))
		}
	}
}

func BenchmarkMarshalOrder(b *testing.B) {
	ts := timestamppb.Now()
	o := &ordersv1.Order{Id: "ord_1", Status: ordersv1.OrderStatus_ORDER_STATUS_SHIPPED, SellerId: "slr_1", CustomerId: "cus_1", Currency: "PHP",
		Subtotal: 100000, Total: 110000, CreatedAt: ts, UpdatedAt: ts,
		ShippingAddress: &ordersv1.Address{Name: "Juan Dela Cruz", Line1: "1 Rizal St", City: "Quezon City", Province: "NCR", PostalCode: "1100", Country: "PH", Phone: "+639171234567"}}
	for i := 0; i < 3; i++ {
		o.Items = append(o.Items, &ordersv1.OrderItem{Id: "itm", OrderId: "ord_1", ProductId: "prd", Title: "Item", Sku: "SKU", Quantity: 2, UnitPrice: 50000, TotalPrice: 100000})
	}
	b.ReportAllocs()
	buf := make([]byte, 0, 4096)
	for i := 0; i < b.N; i++ {
		var err error
		if buf, err = wirejson.AppendMessage(buf[:0], o); err != nil {
			b.Fatal(err)
		}
	}
}

// A raw_json field is written as the JSON it holds, and never read from a
// request.
func TestRawJSON(t *testing.T) {
	ts := timestamppb.New(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC))
	e := &eventsv1.Event{Id: "evt_1", Type: eventsv1.EventType_EVENT_TYPE_ORDER_CANCELLED, CreatedAt: ts, SellerId: "slr_1",
		Sequence: 2, Data: []byte(`{"id":"ord_1","total":43800}`)}
	b, err := wirejson.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"evt_1","type":"order.cancelled","created_at":"2026-11-24T08:00:00.000Z","seller_id":"slr_1","sequence":2,"data":{"id":"ord_1","total":43800}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if err := wirejson.Unmarshal([]byte(`{"data":{"id":"x"}}`), &eventsv1.Event{}); err == nil {
		t.Error("a raw_json field was accepted in a request")
	}
}

// A repeated raw_json field naming its message is written as the array of
// the renderings it holds, byte for byte what the message renders as, and
// is never read from a request.
func TestRawJSONList(t *testing.T) {
	p := &catalogv1.Product{ProductId: "prd_1", Name: "Kettle", Price: 129900}
	one, err := wirejson.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	res := &catalogv1.BulkCreateProductsResult{Created: [][]byte{one, one}, Summary: &commonv1.BulkSummary{Total: 2, Succeeded: 2}}
	got, err := wirejson.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"created":[` + string(one) + `,` + string(one) + `],"errors":[],"summary":{"total":2,"succeeded":2,"failed":0}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if err := wirejson.Unmarshal([]byte(`{"created":[{"productId":"x"}]}`), &catalogv1.BulkCreateProductsResult{}); err == nil {
		t.Error("a raw_json list was accepted in a request")
	}
	if shape := wirejson.Shape(res.ProtoReflect().Descriptor()); !shape.Fields[0].RawJSON || shape.Fields[0].RawJSONMessage != "mp.catalog.v1.Product" {
		t.Errorf("shape of created: %+v", shape.Fields[0])
	}
}

// A list of numbers names the item at fault.
func TestDecodeScalarListItemPath(t *testing.T) {
	var p optionsv1.Policy
	if err := wirejson.Unmarshal([]byte(`{"pageStatuses":[200,404]}`), &p); err != nil || len(p.GetPageStatuses()) != 2 {
		t.Fatalf("%v %v", err, p.GetPageStatuses())
	}
	err := wirejson.Unmarshal([]byte(`{"pageStatuses":[200,"x"]}`), &optionsv1.Policy{})
	if e, ok := apierr.As(err); !ok || e.Code != apierr.ValidationError || !strings.Contains(e.Message, "pageStatuses[1]: must be a number") {
		t.Errorf("got %v", err)
	}
	err = wirejson.Unmarshal([]byte(`{"pageStatuses":[null]}`), &optionsv1.Policy{})
	if e, ok := apierr.As(err); !ok || !strings.Contains(e.Message, "pageStatuses[0]: must be a number") {
		t.Errorf("got %v", err)
	}
}

// Repeated strings are read from the generated struct directly; a message
// of another Go type (dynamicpb) takes the reflective path, and both write
// the same bytes (escapes and empty lists included).
func TestStringListsDirectAndReflective(t *testing.T) {
	p := &catalogv1.Product{ProductId: "prd_1", Name: "Kettle",
		Images:   []string{"https://img.example/a.jpg", "quote \" back\\slash \u2028 é", ""},
		Variants: []*catalogv1.ProductVariant{{VariantId: "var_1"}}}
	for _, m := range []*catalogv1.Product{p, {ProductId: "prd_2"}} {
		direct, err := wirejson.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		dyn := dynamicpb.NewMessage(m.ProtoReflect().Descriptor())
		if err := proto.Unmarshal(raw, dyn); err != nil {
			t.Fatal(err)
		}
		reflective, err := wirejson.Marshal(dyn)
		if err != nil {
			t.Fatal(err)
		}
		if string(direct) != string(reflective) {
			t.Errorf("direct     %s\nreflective %s", direct, reflective)
		}
		if m == p && !strings.Contains(string(direct), `"images":["https://img.example/a.jpg","quote \" back\\slash \u2028 é",""]`) {
			t.Errorf("images rendered as %s", direct)
		}
	}
}

// Reading repeated strings into a generated message's slice and through
// protoreflect (dynamicpb) gives the same message.
func TestDecodeStringListsDirectAndReflective(t *testing.T) {
	body := []byte(`{"title":"Kettle","images":["https://a.ph/1.jpg","https://a.ph/2.jpg"],"variants":[{"price":1,"images":["https://a.ph/3.jpg"]}]}`)
	var direct catalogv1.ProductCreateInput
	if err := wirejson.Unmarshal(body, &direct); err != nil {
		t.Fatal(err)
	}
	dyn := dynamicpb.NewMessage(direct.ProtoReflect().Descriptor())
	if err := wirejson.Unmarshal(body, dyn); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(&direct, dyn) || len(direct.GetImages()) != 2 || direct.GetImages()[1] != "https://a.ph/2.jpg" {
		t.Errorf("direct %v\ndynamic %v", &direct, dyn)
	}
}
