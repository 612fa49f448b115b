package main

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// bookingLine reports whether a README line books an order's shipment
// (POST /open/v1/orders/{id}/shipment), which a label line needs first.
func bookingLine(args []string) bool {
	i := slices.Index(args, http.MethodPost)
	return i >= 0 && i+1 < len(args) && strings.HasPrefix(args[i+1], "/open/v1/orders/") && strings.HasSuffix(args[i+1], "/shipment")
}

// bookForLabel books the order a README label line prints (the argument
// after "label"), for seller 0, through the simulated courier, when no
// README line booked it first: the label line then prints a booked
// order's label as it would after the booking line.
func bookForLabel(t *testing.T, env *testenv.Env, args []string) {
	t.Helper()
	i := slices.Index(args, "label")
	if i+1 >= len(args) {
		t.Fatalf("README label line names no order: %q", args)
	}
	ctx := context.Background()
	seller := env.Creds.Sellers[0].SellerID
	addr, err := sellers.NewEntStore(env.DB).DefaultPickupAddress(ctx, seller)
	if err != nil {
		t.Fatal(err)
	}
	now := env.Clock.Now()
	bk := shipments.NewBooker(shipments.NewEntStore(env.DB), simulated.Name, simulated.New(simulated.Options{}), 0, clock.NewManual(now))
	if _, err := bk.Book(ctx, shipments.BookRequest{SellerID: seller, OrderID: args[i+1], ChannelID: "JNT_STANDARD", Method: carrier.Pickup,
		PickupDate: now.Add(24 * time.Hour).Format(time.DateOnly), Window: carrier.Window{Start: "09:00", End: "17:00"}, AddressID: addr.ID,
		Sender:    carrier.Address{Name: addr.Name, PSGCCode: addr.PSGCCode, PostalCode: addr.PostalCode},
		Recipient: carrier.Address{Name: "Ana Reyes", PSGCCode: "1380200000", PostalCode: "1740"},
		Parcel:    carrier.Parcel{WeightGrams: 1000}}); err != nil {
		t.Fatal(err)
	}
}
