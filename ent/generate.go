// Package ent is the generated data-access layer of core. Only the storage
// files of each service import it; the schema lives in ./schema and the JSON
// column types in internal/db/dbtypes.
package ent

// Versioned migrations are how PostgreSQL evolves (internal/db/migrations);
// execquery lets storage code run the odd hand-written query on the same
// client or transaction; lock gives SELECT ... FOR UPDATE for state changes;
// upsert backs idempotency keys and seeding; modifier allows custom selects
// (keyset predicates, aggregates) without dropping to raw SQL.
//go:generate go tool ent generate --feature sql/versioned-migration,sql/execquery,sql/lock,sql/upsert,sql/modifier ./schema
