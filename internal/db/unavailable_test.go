package db_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// TestUnavailableOnRealFaults classifies the errors a real PostgreSQL link
// gives when it is cut (unavailable: retry later) or frozen past the
// deadline (a timeout, not unavailability).
func TestUnavailableOnRealFaults(t *testing.T) {
	d, proxy := dbtest.PostgresThroughProxy(t)
	ctx := context.Background()
	var n int
	query := func(ctx context.Context) error {
		return d.SQL.QueryRowContext(ctx, "SELECT count(*) FROM orders").Scan(&n)
	}
	if err := query(ctx); err != nil {
		t.Fatal(err)
	}
	if err := d.Pool.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil {
		t.Fatal(err)
	}
	proxy.Cut()
	for i := range 3 { // pooled connections die first, then new ones are refused
		if err := query(ctx); !db.Unavailable(err) {
			t.Fatalf("database/sql, cut, try %d: %v is not unavailable", i, err)
		}
		if err := d.Pool.QueryRow(ctx, "SELECT 1").Scan(&n); !db.Unavailable(err) {
			t.Fatalf("pgx pool, cut, try %d: %v is not unavailable", i, err)
		}
	}
	proxy.Resume()
	proxy.Freeze()
	tctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err := query(tctx)
	if err == nil || db.Unavailable(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("frozen: %v, want a deadline error that is not unavailability", err)
	}
	proxy.Resume()
}

func TestUnavailableCodes(t *testing.T) {
	for code, want := range map[string]bool{
		"08006": true, "57P01": true, "57P03": true, "53300": true,
		"23505": false, "22021": false, "40001": false,
	} {
		err := fmt.Errorf("query: %w", &pgconn.PgError{Code: code})
		if got := db.Unavailable(err); got != want {
			t.Errorf("SQLSTATE %s: unavailable %v, want %v", code, got, want)
		}
	}
	if db.Unavailable(errors.New("constraint failed")) || db.Unavailable(nil) {
		t.Error("an ordinary error is not unavailability")
	}
}
