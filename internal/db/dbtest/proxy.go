package dbtest

import (
	"context"
	"net/url"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/faultnet"
)

// PostgresThroughProxy is Postgres, with every connection of the returned
// database going through a proxy the test can freeze or cut.
func PostgresThroughProxy(t testing.TB) (*db.DB, *faultnet.Proxy) {
	t.Helper()
	dsn := MigratedPostgres(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	proxy := faultnet.NewProxy(t, u.Host)
	u.Host = proxy.Addr()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: u.String(), MaxOpenConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d, proxy
}
