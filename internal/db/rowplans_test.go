package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// plannedRowValues are the destinations of rowPlansSQL's columns.
type plannedRowValues struct {
	Text     string
	Count    int64
	At       time.Time
	Maybe    *string
	MaybeAt  *time.Time
	Document []byte
	Flag     bool
}

func (v *plannedRowValues) dest() []any {
	return []any{&v.Text, &v.Count, &v.At, &v.Maybe, &v.MaybeAt, &v.Document, &v.Flag}
}

const rowPlansSQL = `SELECT $1::text, $2::int8, $3::timestamptz, $4::text, $5::timestamptz, json_build_object('k', $1::text), $6::bool`

// TestRowPlansScanAsPgxDoes reads rows with kept plans and with pgx's own
// Scan, on every connection of the pool, and compares them; then the plans
// meet another statement, other destination types, a NULL where none fits
// and a row of another width.
func TestRowPlansScanAsPgxDoes(t *testing.T) {
	pool := dbtest.Postgres(t).Pool
	ctx := context.Background()
	var plans db.RowPlans
	at := time.Date(2026, 11, 28, 7, 30, 0, 123456000, time.UTC)
	args := [][]any{
		{"Las Piñas \"quoted\"", int64(42), at, "set", at.Add(time.Hour), true},
		{"", int64(-1), at.Add(-24 * time.Hour), nil, nil, false},
	}
	// More reads than connections, concurrently, so that every connection
	// plans once and reads with its plans after.
	errs := make(chan error, 32)
	for i := range 32 {
		go func() {
			a := args[i%len(args)]
			var want, got plannedRowValues
			if err := pool.QueryRow(ctx, rowPlansSQL, a...).Scan(want.dest()...); err != nil {
				errs <- err
				return
			}
			if err := pool.QueryRow(ctx, rowPlansSQL, a...).Scan(plans.Row(got.dest()...)); err != nil {
				errs <- err
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				errs <- errors.New("planned scan differs from pgx's (-pgx +planned):\n" + diff)
				return
			}
			errs <- nil
		}()
	}
	for range 32 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}

	// Another statement through the same plans: its column types differ.
	var n int32
	var s string
	if err := pool.QueryRow(ctx, `SELECT 7::int4, 'x'::varchar`).Scan(plans.Row(&n, &s)); err != nil || n != 7 || s != "x" {
		t.Fatalf("another statement: %d %q %v", n, s, err)
	}
	// The same statement into other destination types.
	var count32 int32
	var v plannedRowValues
	dest := v.dest()
	dest[1] = &count32
	if err := pool.QueryRow(ctx, rowPlansSQL, args[0]...).Scan(plans.Row(dest...)); err != nil || count32 != 42 || v.Text != args[0][0] {
		t.Fatalf("other destination types: %d %q %v", count32, v.Text, err)
	}
	// A nil destination skips its column, as in pgx.
	s = ""
	if err := pool.QueryRow(ctx, `SELECT 7::int4, 'y'::varchar`).Scan(plans.Row(nil, &s)); err != nil || s != "y" {
		t.Fatalf("nil destination: %q %v", s, err)
	}
	// A NULL into a destination that cannot hold one fails as in pgx.
	var notNull string
	err := pool.QueryRow(ctx, `SELECT NULL::text`).Scan(plans.Row(&notNull))
	var argErr pgx.ScanArgError
	if !errors.As(err, &argErr) || argErr.ColumnIndex != 0 {
		t.Fatalf("NULL into a string: %v, want a ScanArgError for column 0", err)
	}
	// A row of another width.
	if err := pool.QueryRow(ctx, `SELECT 1, 2`).Scan(plans.Row(&n)); err == nil {
		t.Fatal("two columns into one destination: no error")
	}
}
