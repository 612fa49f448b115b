package sellers_test

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	sellersv1 "github.com/mallplatform/partnerapi/gen/mp/sellers/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/wirejson"
	"github.com/mallplatform/partnerapi/services/sellers"
)

const internalToken = "test-internal-token-0123456789"

// sellerTokens stands in for the auth service: one access token per
// seller, granting no scope at all (the route needs none).
type sellerTokens map[string]string

func (s sellerTokens) VerifySellerToken(_ context.Context, _, sellerID, token string) ([]string, error) {
	if want, ok := s[sellerID]; ok && token == want {
		return nil, nil
	}
	return nil, apierr.New(apierr.Unauthorized, "seller token is not valid for this seller")
}

var tokens = sellerTokens{"slr_a": "tok_a", "slr_empty": "tok_empty"}

// newClient serves the sellers service from core.New, as production does,
// over an in-memory listener.
func newClient(t *testing.T, svc *sellers.Service) sellersv1.SellersServiceClient {
	t.Helper()
	srv, err := core.New(core.Config{GatewayToken: internalToken, Sellers: tokens,
		Services: []core.Registrar{sellers.NewServer(svc).Register}})
	if err != nil {
		t.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.GRPC.Stop)
	conn, err := grpc.NewClient("passthrough:///sellers",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return sellersv1.NewSellersServiceClient(conn)
}

// as is an app without scopes acting for seller (none: no seller headers),
// called the way the gateway calls core.
func as(seller string) context.Context {
	p := &principal.Principal{AppID: "app_1", ClientID: "test_client_1", AccountID: "acc_1", Environment: "sandbox",
		SellerID: seller, AccessToken: tokens[seller]}
	return metadata.AppendToOutgoingContext(context.Background(), p.AppendMetadata([]string{"authorization", "Bearer " + internalToken})...)
}

func TestGetMe(t *testing.T) {
	d := dbtest.SQLite(t)
	createSellers(t, d, "slr_a", "slr_empty")
	svc := newService(d)
	if err := svc.SeedTestShop(context.Background(), "slr_a"); err != nil {
		t.Fatal(err)
	}
	client := newClient(t, svc)

	t.Run("the seller's shop, any app, no scope", func(t *testing.T) {
		res, err := client.GetMe(as("slr_a"), &sellersv1.GetMeRequest{})
		if err != nil {
			t.Fatal(err)
		}
		me := res.GetData()
		if me.GetSellerId() != "slr_a" || me.GetShopName() != "Shop slr_a" || len(me.GetPickupAddresses()) != 2 {
			t.Fatalf("me %v", me)
		}
		def, other := me.GetPickupAddresses()[0], me.GetPickupAddresses()[1]
		if !def.GetIsDefault() || def.Line2 == nil || other.GetIsDefault() || other.Line2 != nil {
			t.Fatalf("addresses %v", me.GetPickupAddresses())
		}
		// On the wire an address without a second line has no line2.
		b, err := wirejson.Marshal(other)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"addressId":"` + other.GetAddressId() + `","isDefault":false,"name":"Santa Rosa Fulfilment Hub",` +
			`"line1":"Lot 7, Laguna Technopark","city":"City of Santa Rosa","province":"Laguna",` +
			`"region":"Region IV-A (CALABARZON)","postalCode":"4026","phone":"+639171110002","psgcCode":"0403428000"}`
		if string(b) != want {
			t.Fatalf("wire\n got %s\nwant %s", b, want)
		}
	})

	t.Run("a shop without addresses answers an empty list", func(t *testing.T) {
		res, err := client.GetMe(as("slr_empty"), &sellersv1.GetMeRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if res.GetData().GetSellerId() != "slr_empty" || len(res.GetData().GetPickupAddresses()) != 0 {
			t.Fatalf("me %v", res.GetData())
		}
	})

	t.Run("the seller headers are required", func(t *testing.T) {
		_, err := client.GetMe(as(""), &sellersv1.GetMeRequest{})
		if c, _ := apierr.FromStatus(status.Convert(err)); c != apierr.SellerTokenRequired {
			t.Fatalf("%v, want SELLER_TOKEN_REQUIRED", err)
		}
	})
}
