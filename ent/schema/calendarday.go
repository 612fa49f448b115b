package schema

import (
	"regexp"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

var (
	isoDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	// psgcScope is a PSGC region or province code (10 digits), or empty
	// for a national day.
	psgcScope = regexp.MustCompile(`^([0-9]{10})?$`)
)

// CalendarDay is one proclaimed day of the Philippine calendar that departs
// from the usual week (Monday to Saturday working): a regular holiday, a
// special non-working day or a special working day. Operators edit these
// rows (mpserver admin calendar); no holiday list lives in Go. A day is
// national when scope is empty, else local to one PSGC region or province.
type CalendarDay struct {
	ent.Schema
}

func (CalendarDay) Fields() []ent.Field {
	return []ent.Field{
		// The day and scope joined ("2026-04-02", "2026-09-01/0402100000"):
		// one row per day and scope.
		idField(),
		// YYYY-MM-DD in Asia/Manila; text sorts and ranges the same on
		// both backends.
		field.String("date").Match(isoDate).Immutable(),
		field.Enum("kind").Values("REGULAR_HOLIDAY", "SPECIAL_NON_WORKING", "SPECIAL_WORKING"),
		field.String("name").NotEmpty().MaxLen(200),
		// The proclamation that declared the day, e.g. "Proclamation No.
		// 1006 (2025)"; empty when none is known yet.
		field.String("proclamation").Default("").MaxLen(200),
		// An Islamic holiday whose date awaits its own proclamation.
		field.Bool("tentative").Default(false),
		field.String("scope").Default("").Match(psgcScope).Immutable(),
		createdAt(),
		updatedAt(),
	}
}

func (CalendarDay) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("date", "scope").Unique(),
	}
}

// CalendarRevision is the calendar's one version row, bumped in the
// transaction of every edit: each replica polls it (a primary-key read)
// and reloads its snapshot of the days when it moved, and pickup-slot
// caches key on it.
type CalendarRevision struct {
	ent.Schema
}

func (CalendarRevision) Fields() []ent.Field {
	return []ent.Field{
		// Always 1: the one row, written by an upsert on it.
		field.Int("id").Positive().Immutable(),
		field.Int64("version").Default(0).NonNegative(),
		updatedAt(),
	}
}

func (CalendarRevision) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Checks(nonNegative("calendar_revisions", "version"))}
}
