package schema_test

import (
	"strings"
	"testing"

	"entgo.io/ent/schema/field"

	"github.com/mallplatform/partnerapi/ent/migrate"
)

// Every int64 column is money or a stock count and every float a weight or
// dimension: none may go negative, and the database must enforce it, not only
// the Go validators. This catches a new column added without its CHECK.
func TestNumericColumnsHaveChecks(t *testing.T) {
	for _, table := range migrate.Tables {
		checks := map[string]string{}
		if table.Annotation != nil {
			for _, expr := range table.Annotation.Checks {
				col, _, _ := strings.Cut(expr, " ")
				checks[col] = expr
			}
		}
		for _, col := range table.Columns {
			if col.Type != field.TypeInt64 && col.Type != field.TypeFloat64 {
				continue
			}
			expr, ok := checks[col.Name]
			if !ok {
				t.Errorf("%s.%s has no CHECK constraint", table.Name, col.Name)
				continue
			}
			if !strings.HasSuffix(expr, ">= 0") && !strings.HasSuffix(expr, "> 0") {
				t.Errorf("%s.%s: CHECK %q is not a lower bound at zero", table.Name, col.Name, expr)
			}
		}
	}
}

// Each listing filters by seller and pages on (created_at, id); without the
// matching index a seller's listing scans the whole table.
func TestKeysetIndexes(t *testing.T) {
	want := map[string][][]string{
		"products": {{"seller_id", "created_at", "id"}, {"seller_id", "status", "created_at", "id"}},
		"orders":   {{"seller_id", "created_at", "id"}, {"seller_id", "status", "created_at", "id"}},
	}
	for _, table := range migrate.Tables {
		for _, cols := range want[table.Name] {
			found := false
			for _, idx := range table.Indexes {
				var names []string
				for _, c := range idx.Columns {
					names = append(names, c.Name)
				}
				if strings.Join(names, ",") == strings.Join(cols, ",") {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no index on (%s)", table.Name, strings.Join(cols, ", "))
			}
		}
	}
}
