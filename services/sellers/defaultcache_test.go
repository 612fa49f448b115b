package sellers_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/services/sellers"
)

// countingStore holds addresses in memory and counts default-address reads.
type countingStore struct {
	sellers.Store
	addrs map[string][]sellers.PickupAddress
	reads int
}

func (s *countingStore) DefaultPickupAddress(_ context.Context, sellerID string) (sellers.PickupAddress, error) {
	s.reads++
	for _, a := range s.addrs[sellerID] {
		if a.IsDefault {
			return a, nil
		}
	}
	return sellers.PickupAddress{}, sellers.ErrNotFound
}

func (s *countingStore) AddPickupAddresses(_ context.Context, sellerID string, as []sellers.PickupAddress) error {
	s.addrs[sellerID] = append(s.addrs[sellerID], as...)
	return nil
}

func TestDefaultPickupAddressIsCachedUntilWrittenOrExpired(t *testing.T) {
	ctx := context.Background()
	store := &countingStore{addrs: map[string][]sellers.PickupAddress{}}
	wall := clock.NewManual(time.Date(2026, 5, 4, 1, 0, 0, 0, time.UTC))
	svc := sellers.NewService(sellers.Config{Store: store, Clock: wall})
	read := func() (sellers.PickupAddress, error) {
		t.Helper()
		return svc.DefaultPickupAddress(ctx, "slr_a")
	}

	// A shop without a default is read again every time.
	for range 2 {
		if _, err := read(); !errors.Is(err, sellers.ErrNotFound) {
			t.Fatalf("no address: got %v, want ErrNotFound", err)
		}
	}
	if store.reads != 2 {
		t.Fatalf("reads without a default: %d, want 2", store.reads)
	}

	// Its first address counts at once, then is served from memory.
	added, err := svc.AddPickupAddresses(ctx, "slr_a", []sellers.NewPickupAddress{{IsDefault: true, Name: "Shop",
		Line1: "1 Ayala Ave", Phone: "+639171234567", PSGCCode: "1380300000"}})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		a, err := read()
		if err != nil || a.ID != added[0].ID {
			t.Fatalf("after the write: got %+v, %v; want %s", a, err, added[0].ID)
		}
	}
	if store.reads != 3 {
		t.Fatalf("reads after the write: %d, want 3 (one read, two from memory)", store.reads)
	}

	// A write of the seller's addresses through this service forgets it.
	if _, err := svc.AddPickupAddresses(ctx, "slr_a", []sellers.NewPickupAddress{{Name: "Warehouse",
		Line1: "2 Main St", Phone: "+639171234567", PSGCCode: "1380300000"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := read(); err != nil || store.reads != 4 {
		t.Fatalf("after a second write: %v, %d reads, want 4", err, store.reads)
	}

	// A write elsewhere (another replica, the seed) shows after the TTL.
	store.addrs["slr_a"][0].Name = "Shop, renamed"
	wall.Advance(sellers.DefaultAddressTTL - time.Millisecond)
	if a, _ := read(); a.Name != "Shop" {
		t.Fatalf("within the TTL: got %q, want the cached name", a.Name)
	}
	wall.Advance(time.Millisecond)
	if a, _ := read(); a.Name != "Shop, renamed" {
		t.Fatalf("after the TTL: got %q, want the stored name", a.Name)
	}
}

func TestDefaultPickupAddressCacheCanBeTurnedOff(t *testing.T) {
	ctx := context.Background()
	store := &countingStore{addrs: map[string][]sellers.PickupAddress{"slr_a": {{ID: "pad_1", IsDefault: true}}}}
	svc := sellers.NewService(sellers.Config{Store: store, DefaultAddressTTL: -1})
	for range 3 {
		if _, err := svc.DefaultPickupAddress(ctx, "slr_a"); err != nil {
			t.Fatal(err)
		}
	}
	if store.reads != 3 {
		t.Fatalf("reads: %d, want 3", store.reads)
	}
}
