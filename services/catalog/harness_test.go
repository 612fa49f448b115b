package catalog_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/policy"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/events"
	"github.com/mallplatform/partnerapi/services/orders"
)

const internalToken = "test-internal-token-0123456789"

// Two sellers, each with the one access token the test verifier accepts.
const (
	sellerA = "slr_alpha"
	sellerB = "slr_bravo"
)

var sellerTokens = map[string]string{sellerA: "tok_alpha", sellerB: "tok_bravo"}

// fakeSellers stands in for the auth service's verifier: one known token
// per seller.
type fakeSellers struct{}

func (fakeSellers) VerifySellerToken(_ context.Context, _, sellerID, token string) ([]string, error) {
	if want, ok := sellerTokens[sellerID]; ok && token == want {
		return allScopes, nil
	}
	return nil, apierr.New(apierr.Unauthorized, "the seller access token is not valid for this seller")
}

// harness is core's gRPC server wired as in production, with the catalog on
// a seeded database, dialled in memory.
type harness struct {
	client    catalogv1.CatalogServiceClient
	inventory catalogv1.InventoryServiceClient
	// review is the trust and safety team's service, dialled with an
	// internal caller's credential (reviewToken).
	review catalogv1.ProductReviewServiceClient
	store  *catalog.EntStore
	db     *db.DB
	clock  *clock.Manual
}

// newHarness builds the harness; each option adjusts the catalog's
// Config (func(*catalog.Config)) or core's (func(*core.Config)).
func newHarness(t testing.TB, d *db.DB, opts ...any) *harness {
	t.Helper()
	ctx := context.Background()
	store := catalog.NewEntStore(d)
	if err := catalog.SeedCategories(ctx, store); err != nil {
		t.Fatal(err)
	}
	addSeller(t, d, sellerA)
	addSeller(t, d, sellerB)
	clk := clock.NewManual(time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC))
	cfg := catalog.Config{Store: store, Business: clk, Events: events.NewRecorder(events.NewEntStore(d), nil),
		Holds: orders.NewEntStore(d)}
	coreCfg := core.Config{
		GatewayToken:    internalToken,
		Sellers:         fakeSellers{},
		InternalCallers: reviewCaller{},
	}
	for _, o := range opts {
		switch o := o.(type) {
		case func(*catalog.Config):
			o(&cfg)
		case func(*core.Config):
			o(&coreCfg)
		default:
			t.Fatalf("newHarness: option %T adjusts neither config", o)
		}
	}
	svc := catalog.NewService(cfg)
	coreCfg.Services = []core.Registrar{catalog.NewServer(svc).Register, catalog.NewInventoryServer(svc).Register,
		catalog.NewReviewServer(svc).Register}
	srv, err := core.New(coreCfg)
	if err != nil {
		t.Fatal(err)
	}
	conn := dialCore(t, srv)
	return &harness{client: catalogv1.NewCatalogServiceClient(conn), inventory: catalogv1.NewInventoryServiceClient(conn),
		review: catalogv1.NewProductReviewServiceClient(conn),
		store:  store, db: d, clock: clk}
}

// dialCore serves srv in memory and returns a connection to it.
func dialCore(t testing.TB, srv *core.Server) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.GRPC.Stop)
	conn, err := grpc.NewClient("passthrough:///catalog",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(policy.MaxMessageBytes)),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

var allScopes = []string{"catalog:read", "catalog:write"}

// as is the context of a partner app acting for seller with the given
// scopes (all catalog scopes when none are given), the way the gateway
// sends it.
func as(seller string, scopes ...string) context.Context {
	if len(scopes) == 0 {
		scopes = allScopes
	}
	p := &principal.Principal{
		AppID: "app_test", ClientID: "test_client", AccountID: "acct_test",
		Environment: "sandbox", Scopes: scopes,
	}
	if seller != "" {
		p.SellerID, p.AccessToken = seller, sellerTokens[seller]
	}
	md := p.AppendMetadata([]string{"authorization", "Bearer " + internalToken})
	return metadata.AppendToOutgoingContext(context.Background(), md...)
}

// wantCode fails unless err carries the catalogued code and its message
// contains every fragment.
func wantCode(t testing.TB, err error, code apierr.Code, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got success, want %s", apierr.Name(code))
	}
	got, msg := apierr.FromStatus(status.Convert(err))
	if got != code {
		t.Fatalf("got %s (%q), want %s", apierr.Name(got), msg, apierr.Name(code))
	}
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("%s message %q does not mention %q", apierr.Name(code), msg, f)
		}
	}
}
