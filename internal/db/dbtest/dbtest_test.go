package dbtest

import (
	"strings"
	"testing"
)

type stop struct{}

// recorder stands in for testing.TB to observe Skip and Fatal without ending
// the real test.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Skipf(string, ...any)  { r.skipped = true; panic(stop{}) }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; panic(stop{}) }

func run(t *testing.T, fn func(tb testing.TB)) *recorder {
	r := &recorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil {
				if _, ok := p.(stop); !ok {
					panic(p)
				}
			}
		}()
		fn(r)
	}()
	return r
}

func TestUnreachablePostgresSkipsLocallyAndFailsInCI(t *testing.T) {
	t.Setenv("POSTGRES_ADMIN_DSN", "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=2")

	t.Setenv("CI", "")
	if r := run(t, func(tb testing.TB) { RequirePostgres(tb) }); !r.skipped || r.failed {
		t.Errorf("without CI: skipped=%v failed=%v, want a skip", r.skipped, r.failed)
	}
	t.Setenv("CI", "true")
	if r := run(t, func(tb testing.TB) { RequirePostgres(tb) }); !r.failed || r.skipped {
		t.Errorf("with CI=true: skipped=%v failed=%v, want a failure", r.skipped, r.failed)
	}
}

func TestDatabaseName(t *testing.T) {
	a, b := databaseName(), databaseName()
	if a == b {
		t.Errorf("two names collide: %s", a)
	}
	if !strings.HasPrefix(a, "test_dbtest_") || len(a) > 63 {
		t.Errorf("name %q: want test_dbtest_<random> within 63 bytes", a)
	}
}
