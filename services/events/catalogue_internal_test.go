package events

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
)

// testEnum builds an event catalogue of its own: each value named in decls
// carries that declaration, the others none.
func testEnum(t *testing.T, decls map[string]*optionsv1.Event, names ...string) protoreflect.EnumDescriptor {
	t.Helper()
	values := []*descriptorpb.EnumValueDescriptorProto{{Name: proto.String("TEST_EVENT_UNSPECIFIED"), Number: proto.Int32(0)}}
	for i, n := range names {
		v := &descriptorpb.EnumValueDescriptorProto{Name: proto.String(n), Number: proto.Int32(int32(i + 1))}
		if d := decls[n]; d != nil {
			v.Options = &descriptorpb.EnumValueOptions{}
			proto.SetExtension(v.Options, optionsv1.E_Event, d)
		}
		values = append(values, v)
	}
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name: proto.String("test/catalogue.proto"), Package: proto.String("test.v1"), Syntax: proto.String("proto3"),
		EnumType: []*descriptorpb.EnumDescriptorProto{{Name: proto.String("TestEvent"), Value: values}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fd.Enums().Get(0)
}

// A type that declares neither a read scope nor an addressee (a shipment
// event added without its declaration) is reported by name, as is one that
// declares both; the declared ones pass.
func TestCatalogueFailsClosedOnATypeWithoutScope(t *testing.T) {
	if err := CheckCatalogue(); err != nil {
		t.Fatalf("the catalogue itself: %v", err)
	}
	desc := testEnum(t, map[string]*optionsv1.Event{
		"TEST_EVENT_ORDER_PAID":   {ReadScope: "orders:read"},
		"TEST_EVENT_GRANT":        {AddressedToApp: true},
		"TEST_EVENT_RETURN_MIXED": {ReadScope: "orders:read", AddressedToApp: true},
	}, "TEST_EVENT_ORDER_PAID", "TEST_EVENT_GRANT", "TEST_EVENT_SHIPMENT_BOOKED", "TEST_EVENT_RETURN_MIXED")
	err := checkEnum(desc)
	if err == nil {
		t.Fatal("a catalogue with an undeclared type passed the check")
	}
	for _, want := range []string{"TEST_EVENT_SHIPMENT_BOOKED declares no read scope", "TEST_EVENT_RETURN_MIXED declares both"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	for _, declared := range []string{"TEST_EVENT_ORDER_PAID", "TEST_EVENT_GRANT"} {
		if strings.Contains(err.Error(), declared) {
			t.Errorf("error %q names the declared %s", err, declared)
		}
	}
}

// A value outside the catalogue has no declaration: nobody may read it, and
// a domain declaring it is refused.
func TestUndeclaredTypeIsClosed(t *testing.T) {
	outside := Type(9999)
	if err := CheckTypes([]Type{outside}); err == nil || !strings.Contains(err.Error(), "9999") {
		t.Errorf("CheckTypes(9999) = %v", err)
	}
	if ReadScope(outside) != "" || Addressed(outside) {
		t.Error("a type outside the catalogue has a declaration")
	}
	if _, err := newEvent(Change{SellerID: "sel_1", ResourceID: "r", Type: outside}); err == nil {
		t.Error("an event of an undeclared type was recorded")
	}
}

// The types of the first releases keep the scopes they were read with
// before scopes were declared on the enum.
func TestDeclaredScopes(t *testing.T) {
	want := map[string]string{"order": "orders:read", "product": "catalog:read", "inventory": "catalog:read", "authorization": ""}
	for _, typ := range catalogue {
		resource, _, _ := strings.Cut(WireName(typ), ".")
		scope, ok := want[resource]
		if !ok {
			continue // a later resource: CheckCatalogue holds it to a declaration
		}
		if got := ReadScope(typ); got != scope {
			t.Errorf("ReadScope(%s) = %q, want %q", WireName(typ), got, scope)
		}
		if Addressed(typ) != (resource == "authorization") {
			t.Errorf("Addressed(%s) = %v", WireName(typ), Addressed(typ))
		}
	}
}
