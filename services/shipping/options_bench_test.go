package shipping

import (
	"context"
	"testing"

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// memoryChannels is the built-in channel set held in memory: the benchmark
// measures the handler, not the store (which Service.Channels consults
// once per poll interval, not per request).
type memoryChannels struct{ t *channels.Tables }

func (m memoryChannels) Load(context.Context) (*channels.Tables, string, error) {
	return m.t, "v1", nil
}
func (memoryChannels) Version(context.Context) (string, error) { return "v1", nil }

// noCalendar is a calendar store the options never read.
type noCalendar struct{ Store }

func (noCalendar) CalendarVersion(context.Context) (int64, error) { return 0, nil }
func (noCalendar) CalendarDays(context.Context) ([]calendar.Day, int64, error) {
	return nil, 0, nil
}

// BenchmarkListShippingOptions is one quote through core's handler: two
// places resolved by name, a parcel with its sides and insurance, five
// channels priced, sorted and converted for the wire.
func BenchmarkListShippingOptions(b *testing.B) {
	chs, err := channels.Default()
	if err != nil {
		b.Fatal(err)
	}
	t, err := channels.Build(chs)
	if err != nil {
		b.Fatal(err)
	}
	srv := NewServer(NewService(Config{Store: noCalendar{}, Channels: memoryChannels{t}, PollInterval: 1 << 62}))
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	yes, amount := true, int64(250000)
	req := &shippingv1.ListShippingOptionsRequest{OriginCity: str("Quezon City"), DestinationCity: str("Santa Rosa"),
		DestinationProvince: str("Laguna"), ActualWeight: num(1200), Length: num(30), Width: num(20), Height: num(20),
		InsuranceEnabled: &yes, OrderAmount: &amount}
	ctx := context.Background()
	if _, err := srv.ListShippingOptions(ctx, req); err != nil { // loads the tables once
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := srv.ListShippingOptions(ctx, req)
		if err != nil || len(out.Data) != 5 {
			b.Fatal(len(out.GetData()), err)
		}
	}
}
