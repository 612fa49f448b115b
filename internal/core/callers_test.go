package core_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	catalogv1 "github.com/mallplatform/partnerapi/gen/mp/catalog/v1"
	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	ordersv1 "github.com/mallplatform/partnerapi/gen/mp/orders/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/principal"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/auth"
)

// wantRefused checks the gRPC code and the catalogued reason of a refusal.
func wantRefused(t *testing.T, what string, err error, code codes.Code, reason apierr.Code) {
	t.Helper()
	st := status.Convert(err)
	got, _ := apierr.FromStatus(st)
	if st.Code() != code || got != reason {
		t.Fatalf("%s: got %s %s (%q), want %s %s", what, st.Code(), apierr.Name(got), st.Message(), code, apierr.Name(reason))
	}
}

// listServices asks reflection for the service list over conn.
func listServices(conn *grpc.ClientConn) ([]string, error) {
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(context.Background())
	if err != nil {
		return nil, err
	}
	if err := stream.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	resp, err := stream.Recv()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	return names, stream.CloseSend()
}

// describes reports whether reflection answers for symbol.
func describes(t *testing.T, conn *grpc.ClientConn, symbol string) bool {
	t.Helper()
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: symbol}}); err != nil {
		t.Fatal(err)
	}
	resp, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	_ = stream.CloseSend()
	return len(resp.GetFileDescriptorResponse().GetFileDescriptorProto()) > 0
}

func TestReflectionNeedsACallerCredential(t *testing.T) {
	e := testenv.Start(t, testenv.Options{})
	for name, token := range map[string]string{"none": "", "wrong": "not-the-gateway-token-nor-a-caller", "unknown caller": auth.InternalCallerTokenPrefix + "0000000000000000000000000000000000000000000000000000"} {
		_, err := listServices(e.DialCore(t, token))
		wantRefused(t, "reflection with credential "+name, err, codes.Unauthenticated, apierr.Unauthorized)
	}
	// Health stays open: load balancers probe it without a secret.
	if _, err := healthpb.NewHealthClient(e.DialCore(t, "")).Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatalf("health without a credential: %v", err)
	}
}

func TestReflectionForInternalCallersHidesTheGatewaysServices(t *testing.T) {
	e := testenv.Start(t, testenv.Options{})
	conn := e.DialCore(t, e.InternalCaller(t, "checkout"))
	names, err := listServices(conn)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, "mp.orders.v1.OrdersService") || !slices.Contains(names, "mp.catalog.v1.CatalogService") {
		t.Fatalf("partner-facing services missing from %v", names)
	}
	if slices.Contains(names, "mp.credentials.v1.CredentialService") {
		t.Fatalf("reflection lists the gateway's CredentialService: %v", names)
	}
	if !describes(t, conn, "mp.orders.v1.OrdersService") {
		t.Fatal("reflection does not describe OrdersService")
	}
	for _, sym := range []string{"mp.credentials.v1.CredentialService", "mp.credentials.v1.AppSecret"} {
		if describes(t, conn, sym) {
			t.Fatalf("reflection describes %s to an internal caller", sym)
		}
	}
	// The gateway's credential is for partner traffic, not for exploring.
	_, err = listServices(e.DialCore(t, e.GatewayToken))
	wantRefused(t, "reflection with the gateway token", err, codes.PermissionDenied, apierr.Forbidden)
}

func TestOnlyTheGatewayReadsAppCredentials(t *testing.T) {
	e := testenv.Start(t, testenv.Options{})
	ctx := context.Background()
	req := &credentialsv1.GetAppCredentialsRequest{ClientId: e.Creds.Apps["full"].ClientID}

	_, err := credentialsv1.NewCredentialServiceClient(e.DialCore(t, e.InternalCaller(t, "trust-safety"))).GetAppCredentials(ctx, req)
	wantRefused(t, "internal caller", err, codes.PermissionDenied, apierr.Forbidden)

	resp, err := credentialsv1.NewCredentialServiceClient(e.DialCore(t, e.GatewayToken)).GetAppCredentials(ctx, req)
	if err != nil || len(resp.GetData().GetSecrets()) == 0 {
		t.Fatalf("gateway: %v %v", resp, err)
	}
}

func TestInternalCallersReachPartnerServicesButNotAsAPartner(t *testing.T) {
	e := testenv.Start(t, testenv.Options{})
	conn := e.DialCore(t, e.InternalCaller(t, "logistics"))
	seller := e.Creds.Sellers[0].SellerID
	ctx := metadata.AppendToOutgoingContext(context.Background(), principal.KeySellerID, seller)
	list, err := ordersv1.NewOrdersServiceClient(conn).ListOrders(ctx, &ordersv1.ListOrdersRequest{})
	if err != nil || len(list.GetData()) == 0 {
		t.Fatalf("internal caller listing a seller's orders: %v", err)
	}

	// Principal metadata from an internal caller is refused: it would let
	// the caller act as any partner app.
	app, err := e.Auth.AppCredentials(context.Background(), e.Creds.Apps["full"].ClientID)
	if err != nil {
		t.Fatal(err)
	}
	p := &principal.Principal{AppID: app.App.ID, ClientID: app.App.ClientID, AccountID: app.App.AccountID, Environment: app.App.Environment, Scopes: app.App.Scopes}
	impersonating := metadata.AppendToOutgoingContext(context.Background(), p.AppendMetadata(nil)...)
	_, err = authv1.NewAuthServiceClient(conn).GetUsage(impersonating, &authv1.GetUsageRequest{})
	wantRefused(t, "internal caller sending a principal", err, codes.PermissionDenied, apierr.Forbidden)
	_, err = ordersv1.NewOrdersServiceClient(conn).ListOrders(metadata.AppendToOutgoingContext(impersonating, principal.KeySellerID, seller), &ordersv1.ListOrdersRequest{})
	wantRefused(t, "internal caller sending a principal to orders", err, codes.PermissionDenied, apierr.Forbidden)
}

func TestInternalCallerLimitedToItsServices(t *testing.T) {
	e := testenv.Start(t, testenv.Options{})
	conn := e.DialCore(t, e.InternalCaller(t, "orders-only", "mp.orders.v1.OrdersService"))
	_, err := catalogv1.NewCatalogServiceClient(conn).ListCategories(context.Background(), &catalogv1.ListCategoriesRequest{})
	wantRefused(t, "a service the caller was not granted", err, codes.PermissionDenied, apierr.Forbidden)
	ctx := metadata.AppendToOutgoingContext(context.Background(), principal.KeySellerID, e.Creds.Sellers[0].SellerID)
	if _, err := ordersv1.NewOrdersServiceClient(conn).ListOrders(ctx, &ordersv1.ListOrdersRequest{}); err != nil {
		t.Fatalf("the granted service: %v", err)
	}
}

func TestRevokedInternalCallerIsRefusedAfterTheCacheTTL(t *testing.T) {
	e := testenv.Start(t, testenv.Options{})
	ctx := context.Background()
	issued, err := e.Auth.CreateInternalCaller(ctx, auth.NewInternalCaller{Name: "checkout"})
	if err != nil {
		t.Fatal(err)
	}
	client := catalogv1.NewCatalogServiceClient(e.DialCore(t, issued.Token))
	if _, err := client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{}); err != nil {
		t.Fatalf("before revocation: %v", err)
	}
	if _, err := e.Auth.RevokeInternalCaller(ctx, issued.Caller.ID); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(auth.InternalCallerCacheTTL)
	_, err = client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{})
	wantRefused(t, "after revocation", err, codes.Unauthenticated, apierr.Unauthorized)
	_, err = listServices(e.DialCore(t, issued.Token))
	wantRefused(t, "reflection after revocation", err, codes.Unauthenticated, apierr.Unauthorized)
}

func TestInternalServicesExcludeTheGatewaysOwn(t *testing.T) {
	names, err := core.InternalServices()
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(names, "mp.credentials.v1.CredentialService") || !slices.Contains(names, "mp.orders.v1.OrdersService") {
		t.Fatalf("internal services: %v", names)
	}
	// The gateway answers the OpenAPI document itself: core offers it to
	// nobody.
	if slices.Contains(names, "mp.openapi.v1.OpenAPIService") {
		t.Fatalf("internal services include a gateway-owned one: %v", names)
	}
}
