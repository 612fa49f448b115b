package core

import (
	"slices"
	"sort"

	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"
	reflectionv1 "google.golang.org/grpc/reflection/grpc_reflection_v1"
	reflectionv1alpha "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	optionsv1 "github.com/mallplatform/partnerapi/gen/mp/options/v1"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// Reflection's services: any authenticated caller may use them; what they
// describe is filtered (reflectionFor).
var reflectionServices = map[string]bool{
	"grpc.reflection.v1.ServerReflection":      true,
	"grpc.reflection.v1alpha.ServerReflection": true,
}

// access is who may reach each of the platform's services, read once from
// (mp.options.v1.service_policy): the declaration lives in the proto, and
// this applies it to every method of the service alike.
type access struct {
	// internal holds the services open to internal callers.
	internal map[string]bool
	// platform holds every service of the platform's packages.
	platform map[string]bool
	// gatewayOnly holds the services closed to internal callers, whose
	// files reflection does not describe.
	gatewayOnly map[string]bool
}

func newAccess(table *policy.Table) *access {
	a := &access{internal: map[string]bool{}, platform: map[string]bool{}, gatewayOnly: map[string]bool{}}
	routed := map[string]bool{}
	policies := map[string]optionsv1.Callers{}
	for _, m := range table.Methods() {
		sd, ok := m.Desc.Parent().(protoreflect.ServiceDescriptor)
		if !ok {
			continue
		}
		name := string(sd.FullName())
		if m.GatewayOwned() {
			// Not served here: nobody may call it, and reflection does
			// not describe it.
			a.gatewayOnly[name] = true
			continue
		}
		a.platform[name] = true
		if len(m.Routes) > 0 {
			routed[name] = true
		}
		if sp, ok := proto.GetExtension(sd.Options(), optionsv1.E_ServicePolicy).(*optionsv1.ServicePolicy); ok && sp != nil {
			policies[name] = sp.GetCallers()
		}
	}
	for name := range a.platform {
		open := false
		switch policies[name] {
		case optionsv1.Callers_CALLERS_ALL:
			open = true
		case optionsv1.Callers_CALLERS_GATEWAY:
			open = false
		default:
			// Partner-facing services are what internal callers share
			// with partners; anything else stays the gateway's until its
			// proto opens it.
			open = routed[name]
		}
		if open {
			a.internal[name] = true
		} else {
			a.gatewayOnly[name] = true
		}
	}
	return a
}

// gatewayMay reports whether the gateway may call fullMethod: the platform's
// services. Reflection is for people exploring the port, not for the
// gateway.
func (a *access) gatewayMay(fullMethod string) bool {
	return a.platform[serviceOf(fullMethod)]
}

// internalMay reports whether an internal caller may call fullMethod.
func (a *access) internalMay(c *InternalCaller, fullMethod string) bool {
	svc := serviceOf(fullMethod)
	if reflectionServices[svc] {
		return true
	}
	if !a.internal[svc] {
		return false
	}
	return len(c.Services) == 0 || slices.Contains(c.Services, svc)
}

// internalServices lists the services open to internal callers.
func (a *access) internalServices() []string {
	out := make([]string, 0, len(a.internal))
	for name := range a.internal {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// InternalServices lists, sorted, the services internal callers may be
// granted: the operator command checks a new caller's list against it.
func InternalServices() ([]string, error) {
	table, err := policy.Load()
	if err != nil {
		return nil, err
	}
	return newAccess(table).internalServices(), nil
}

// registerReflection serves reflection over what internal callers may
// reach: the services closed to them are not listed, and the files that
// declare them (with their messages, such as app secrets) are not
// described.
func (a *access) registerReflection(s *grpc.Server) {
	opts := reflection.ServerOptions{
		Services:           filteredServices{s: s, hide: a.gatewayOnly},
		DescriptorResolver: filteredFiles{files: protoregistry.GlobalFiles, hide: a.gatewayOnly},
	}
	reflectionv1.RegisterServerReflectionServer(s, reflection.NewServerV1(opts))
	reflectionv1alpha.RegisterServerReflectionServer(s, reflection.NewServer(opts))
}

type filteredServices struct {
	s    reflection.ServiceInfoProvider
	hide map[string]bool
}

func (f filteredServices) GetServiceInfo() map[string]grpc.ServiceInfo {
	out := map[string]grpc.ServiceInfo{}
	for name, info := range f.s.GetServiceInfo() {
		if !f.hide[name] {
			out[name] = info
		}
	}
	return out
}

type filteredFiles struct {
	files *protoregistry.Files
	hide  map[string]bool
}

var _ protodesc.Resolver = filteredFiles{}

func (f filteredFiles) FindFileByPath(path string) (protoreflect.FileDescriptor, error) {
	fd, err := f.files.FindFileByPath(path)
	if err != nil {
		return nil, err
	}
	if f.hidden(fd) {
		return nil, protoregistry.NotFound
	}
	return fd, nil
}

func (f filteredFiles) FindDescriptorByName(name protoreflect.FullName) (protoreflect.Descriptor, error) {
	d, err := f.files.FindDescriptorByName(name)
	if err != nil {
		return nil, err
	}
	if f.hidden(d.ParentFile()) {
		return nil, protoregistry.NotFound
	}
	return d, nil
}

func (f filteredFiles) hidden(fd protoreflect.FileDescriptor) bool {
	services := fd.Services()
	for i := 0; i < services.Len(); i++ {
		if f.hide[string(services.Get(i).FullName())] {
			return true
		}
	}
	return false
}
