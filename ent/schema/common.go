package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// nowUTC is the default for timestamps written without an explicit value. It
// matches clock.System (UTC, millisecond precision) so that a value read back
// from either backend equals the one that was written, and cursors built from
// it round-trip exactly.
func nowUTC() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// idField is the primary key of application-identified entities: ids are
// minted by internal/ids before the insert, so the database never assigns one
// and an id never changes.
func idField() ent.Field {
	return field.String("id").Immutable().NotEmpty()
}

func createdAt() ent.Field {
	return field.Time("created_at").Immutable().Default(nowUTC)
}

func updatedAt() ent.Field {
	return field.Time("updated_at").Default(nowUTC).UpdateDefault(nowUTC)
}

// nonNegative returns named CHECK constraints keeping money and counts at or
// above zero inside the database, so a bug in one service (or a hand-run SQL
// statement) cannot store a negative amount. Named constraints make the
// violation readable in logs and keep the migration diff stable.
func nonNegative(table string, columns ...string) map[string]string {
	return checks(table, ">= 0", columns...)
}

// positive is nonNegative for quantities and limits that must be at least one.
func positive(table string, columns ...string) map[string]string {
	return checks(table, "> 0", columns...)
}

func checks(table, cond string, columns ...string) map[string]string {
	m := make(map[string]string, len(columns))
	for _, c := range columns {
		m[table+"_"+c+"_check"] = c + " " + cond
	}
	return m
}

// merge joins check maps; entsql.Checks takes a single map per annotation.
func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
