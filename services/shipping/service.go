// Package shipping is the shipping service: the read side of shipping (the
// Philippine calendar and the channel tables here; shipping options, pickup slots and eligible
// dates build on it: pickup*.go). Each group of methods has its files: calendar*.go for
// the calendar, server_*.go for their gRPC faces.
package shipping

import (
	"context"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// DefaultPollInterval is how often a replica checks the calendar's version:
// an operator's edit reaches every replica within it (the issue allows 5 s).
const DefaultPollInterval = 2 * time.Second

// storeTimeout bounds each storage call the service makes on its own
// account (the version check and the reload) and each read of another
// domain (an order, a pickup address), whatever the caller's deadline.
const storeTimeout = 3 * time.Second

// Config is what the service is built from.
type Config struct {
	Store Store
	// Channels is where the channel tables are stored (admin load-channels
	// replaces them); nil: the service quotes nothing and its channel reads
	// fail.
	Channels ChannelStore
	// Sellers gives a shop's pickup addresses: the origin of a quote asked
	// without one, and the place whose calendar a pickup follows.
	Sellers Sellers
	// Orders reads an order's shipment facts for its pickup slots; nil:
	// the slot routes answer SERVICE_UNAVAILABLE.
	Orders Orders
	// Shipments keeps the orders' bookings and their parcels' tracking
	// events; nil: the booking, tracking and label routes answer
	// SERVICE_UNAVAILABLE.
	Shipments shipments.Store
	// Carrier is the courier bookings go to (the simulated courier in dev
	// and the sandbox), named CarrierName on each shipment it books.
	Carrier     carrier.Carrier
	CarrierName string
	// Business is the shops' business clock: "today", "now" and the
	// cut-off of a pickup slot follow it, so a sandbox shop's moved clock
	// moves them (default: the system clock).
	Business clock.Business
	// PollInterval is how old the in-memory calendar and channel tables may
	// grow before a read checks the stored version; 0 means
	// DefaultPollInterval.
	PollInterval time.Duration
}

// ChannelStore is the stored channel tables (channels.EntStore).
type ChannelStore interface {
	Load(ctx context.Context) (*channels.Tables, string, error)
	Version(ctx context.Context) (string, error)
}

// Sellers is the sellers domain's read of pickup addresses
// (sellers.Service).
type Sellers interface {
	DefaultPickupAddress(ctx context.Context, sellerID string) (sellers.PickupAddress, error)
	PickupAddress(ctx context.Context, sellerID, addressID string) (sellers.PickupAddress, error)
}

// Service is the shipping service.
type Service struct {
	store    Store
	sellers  Sellers
	orders   Orders
	business clock.Business
	// shipments and carrier: see Config.
	shipments   shipments.Store
	carrier     carrier.Carrier
	carrierName string
	calendar    *refreshed[*calendar.Snapshot, int64]
	channels    *refreshed[*channels.Tables, string]
}

// NewService returns the service over cfg.
func NewService(cfg Config) *Service {
	poll := cfg.PollInterval
	if poll <= 0 {
		poll = DefaultPollInterval
	}
	if cfg.Business == nil {
		cfg.Business = clock.System{}
	}
	s := &Service{store: cfg.Store, sellers: cfg.Sellers, orders: cfg.Orders, business: cfg.Business,
		shipments: cfg.Shipments, carrier: cfg.Carrier, carrierName: cfg.CarrierName}
	s.calendar = newRefreshed(poll, cfg.Store.CalendarVersion,
		func(ctx context.Context) (*calendar.Snapshot, int64, error) {
			days, v, err := cfg.Store.CalendarDays(ctx)
			if err != nil {
				return nil, 0, err
			}
			return calendar.NewSnapshot(v, days), v, nil
		})
	chs := cfg.Channels
	if chs == nil {
		chs = noChannels{}
	}
	s.channels = newRefreshed(poll, chs.Version, chs.Load)
	return s
}

// Calendar returns the calendar snapshot, checked against the stored
// version within the poll interval: the pickup-slot code reads the
// calendar through here and keys its caches on the snapshot's Version.
func (s *Service) Calendar(ctx context.Context) (*calendar.Snapshot, error) {
	return s.calendar.get(ctx)
}

// Channels returns the channel tables the quotes are computed from, checked
// against the stored set within the poll interval: every replica quotes
// from memory, with no database query per option.
func (s *Service) Channels(ctx context.Context) (*channels.Tables, error) {
	return s.channels.get(ctx)
}

// invalidate makes the next calendar read check the store: this replica
// serves its own edits at once.
func (s *Service) invalidate() { s.calendar.invalidate() }

// noChannels is the channel store of a service built without one.
type noChannels struct{}

func (noChannels) Load(context.Context) (*channels.Tables, string, error) {
	return nil, "", channels.ErrNoChannels
}
func (noChannels) Version(context.Context) (string, error) { return "", channels.ErrNoChannels }
