package serviceset

import (
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// tracker is the one tracking use case over the parts: the carrier push
// service and the sandbox's courier append through it, so a courier's
// webhook and a partner's sandbox step move an order the same way.
func tracker(p Parts) *shipping.Tracker {
	return shipping.NewTracker(shipping.TrackerConfig{Shipments: shipments.NewEntStore(p.DB), Orders: p.Orders,
		Events: p.Events, Business: p.Business})
}
