package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// InternalCaller is a platform team's identity on core's gRPC port (checkout,
// logistics, trust & safety...), issued and revoked by an operator. Only the
// SHA-256 of its bearer token is stored: a database leak yields no usable
// credential. It never reaches the gateway-only services, and it cannot act
// as a partner app.
type InternalCaller struct {
	ent.Schema
}

func (InternalCaller) Fields() []ent.Field {
	return []ent.Field{
		idField(),
		field.String("name").NotEmpty().MaxLen(64),
		field.String("token_hash").MaxLen(64).Match(sha256Hex).Unique().Immutable().Sensitive(),
		// Full gRPC service names the caller may reach, e.g.
		// "mp.orders.v1.OrdersService"; empty means every service open to
		// internal callers.
		field.JSON("services", []string{}).Default([]string{}),
		createdAt(),
		field.Time("revoked_at").Optional().Nillable(),
	}
}
