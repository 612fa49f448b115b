package ordergen

import (
	"testing"

	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

// Every generated order names a channel the platform ships with, so its
// pickup slots follow that channel's cut-off and window.
func TestCouriersAreSeededChannels(t *testing.T) {
	chs, err := channels.Default()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, c := range chs {
		known[c.ID] = true
	}
	for _, c := range couriers {
		if !known[c.channel] {
			t.Errorf("%s routes orders to %s, which channels.json does not hold", c.company, c.channel)
		}
	}
}
