package gateway_test

import (
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
)

// One caller reading the eligible dates of an order, one request after the
// other, through gateway → core on PostgreSQL: the time and allocations per
// request (client, gateway and core together) without the pacing of
// BenchmarkShippingReadsAt500, for comparing two versions of the code on a
// busy machine.
//
//	CI=true go test ./gateway -run '^$' -bench 'EligibleDatesSerial' -benchmem
func BenchmarkEligibleDatesSerial(b *testing.B) {
	env := testenv.Start(b, testenv.Options{Postgres: true, Unlimited: true})
	c := env.Client(b, "full", 0)
	order := firstOrderID(b, c, "status=READY_TO_SHIP&limit=1")
	for _, rt := range []struct{ name, path string }{
		{"order", "/open/v1/orders/" + order},
		{"eligible-dates", "/open/v1/orders/" + order + "/shipment/eligible-dates"},
	} {
		b.Run(rt.name, func(b *testing.B) {
			for b.Loop() {
				r, err := c.DoSigned(ctx, sdk.Request{Method: "GET", Path: rt.path})
				if err != nil || r.Status != 200 {
					b.Fatalf("%v %v", err, r)
				}
			}
		})
	}
}
