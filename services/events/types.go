package events

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/principal"
)

// declaration is what an event type's enum value declares about its readers
// ((mp.options.v1.event)).
type declaration struct {
	// scope reads and subscribes to the type's events.
	scope string
	// addressed: each event names one app and reaches it alone.
	addressed bool
}

// declarations is read from the catalogue's enum once, keyed by number; a
// type missing here (or declaring neither) is readable by nobody.
var declarations = declarationsOf(typeDesc)

func declarationsOf(desc protoreflect.EnumDescriptor) map[protoreflect.EnumNumber]declaration {
	out := map[protoreflect.EnumNumber]declaration{}
	values := desc.Values()
	for i := 0; i < values.Len(); i++ {
		v := values.Get(i)
		d, _ := proto.GetExtension(v.Options(), optionsv1.E_Event).(*optionsv1.Event)
		out[v.Number()] = declaration{scope: d.GetReadScope(), addressed: d.GetAddressedToApp()}
	}
	return out
}

// CheckCatalogue reports every event type of the catalogue that declares
// neither a read scope nor an addressee, or both: core and the worker refuse
// to start on it, so a new type is never readable by every app of a seller
// because its declaration was forgotten.
func CheckCatalogue() error { return checkEnum(typeDesc) }

// CheckTypes is CheckCatalogue for some types, such as those one domain
// records; a value outside the catalogue fails too.
func CheckTypes(types []Type) error {
	var errs []error
	for _, t := range types {
		if WireName(t) == "" {
			errs = append(errs, fmt.Errorf("events: event type %d is not in the catalogue (mp.events.v1.EventType)", t))
			continue
		}
		v := typeDesc.Values().ByNumber(protoreflect.EnumNumber(t))
		errs = append(errs, checkDeclared(v, declarations[v.Number()]))
	}
	return errors.Join(errs...)
}

func checkEnum(desc protoreflect.EnumDescriptor) error {
	var errs []error
	decls := declarationsOf(desc)
	values := desc.Values()
	for i := 0; i < values.Len(); i++ {
		if v := values.Get(i); v.Number() != 0 {
			errs = append(errs, checkDeclared(v, decls[v.Number()]))
		}
	}
	return errors.Join(errs...)
}

func checkDeclared(v protoreflect.EnumValueDescriptor, d declaration) error {
	switch {
	case d.scope == "" && !d.addressed:
		return fmt.Errorf("events: event type %s declares no read scope and is not addressed to an app: set (mp.options.v1.event) on it", v.Name())
	case d.scope != "" && d.addressed:
		return fmt.Errorf("events: event type %s declares both a read scope and an addressee: it is one or the other", v.Name())
	}
	return nil
}

// ReadScope is the scope that reads and subscribes to events of type t; ""
// for an addressed type (see Addressed) and for a type that declares
// nothing, which nobody may read.
func ReadScope(t Type) string { return declarations[protoreflect.EnumNumber(t)].scope }

// Addressed reports whether events of type t are addressed to one app
// (Change.AppID): read from the feed and delivered by webhooks to that app
// alone, whatever the seller granted.
func Addressed(t Type) bool { return declarations[protoreflect.EnumNumber(t)].addressed }

// MayRead reports whether partner p may read events of type t and subscribe
// to them: with the type's scope, or, for an addressed type, always (the
// store hands p its own events alone). A type declaring neither is closed.
func MayRead(p *principal.Principal, t Type) bool {
	d := declarations[protoreflect.EnumNumber(t)]
	if d.addressed {
		return true
	}
	return d.scope != "" && p.HasScope(d.scope)
}
