package dbtest

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// Query runs q on d and returns Rows of its answer.
func Query(t testing.TB, d *sql.DB, q string, args ...any) []map[string]any {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	return Rows(t, rows)
}

// Rows reads every row of a query's answer, each as column name → value
// as scanned, and closes it: for tests that look at rows whole (what a
// table stores, what a plan says) rather than at fields they name.
func Rows(t testing.TB, rows *sql.Rows) []map[string]any {
	t.Helper()
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Text is a scanned value as text: bytes and strings as they are, anything
// else formatted.
func Text(v any) string {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case string:
		return v
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}
