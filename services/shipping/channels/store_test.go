package channels_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

func TestStore(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := channels.NewEntStore(d)

		if _, _, err := s.Load(ctx); !errors.Is(err, channels.ErrNoChannels) {
			t.Fatalf("Load on an empty table = %v, want ErrNoChannels", err)
		}
		seeded, err := channels.SeedDefault(ctx, s)
		if err != nil || !seeded {
			t.Fatalf("SeedDefault = %v, %v", seeded, err)
		}
		if again, err := channels.SeedDefault(ctx, s); err != nil || again {
			t.Fatalf("second SeedDefault = %v, %v; want nothing written", again, err)
		}
		tb, v1, err := s.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defaults, _ := channels.Default()
		if got := len(tb.Channels()); got != len(defaults) {
			t.Fatalf("loaded %d channels, want %d", got, len(defaults))
		}
		if v, err := s.Version(ctx); err != nil || v != v1 {
			t.Fatalf("Version = %q, %v; Load said %q", v, err, v1)
		}

		// Replace with a smaller, edited set: the rest goes, in one step.
		edited := defaults[:2]
		edited[1].Active = false
		edited[0].Cutoff = "15:30"
		v2, err := s.Replace(ctx, edited)
		if err != nil {
			t.Fatal(err)
		}
		tb, v, err := s.Load(ctx)
		if err != nil || v != v2 || v2 == v1 {
			t.Fatalf("after Replace: version %q (Replace said %q, before %q), %v", v, v2, v1, err)
		}
		if n := len(tb.Channels()); n != 2 {
			t.Fatalf("%d channels after Replace, want 2", n)
		}
		c, ok := tb.Channel(edited[0].ID)
		if !ok || c.Cutoff != "15:30" || !c.Active {
			t.Errorf("edited channel: %+v", c)
		}
		if c, _ := tb.Channel(edited[1].ID); c.Active {
			t.Error("inactive channel loaded active")
		}

		// A set that fails its checks writes nothing.
		bad := append([]channels.Channel(nil), defaults...)
		bad[0].VolumetricDivisor = 0
		if _, err := s.Replace(ctx, bad); err == nil {
			t.Fatal("Replace accepted a channel with a zero divisor")
		}
		if v, _ := s.Version(ctx); v != v2 {
			t.Error("a refused Replace changed the stored set")
		}
		if _, err := s.Replace(ctx, nil); !errors.Is(err, channels.ErrNoChannels) {
			t.Errorf("Replace with nothing = %v", err)
		}
	})
}

// Concurrent replaces serialise: the table ends as one whole set, never a
// mix or a failure.
func TestStoreConcurrentReplace(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := channels.NewEntStore(d)
		defaults, _ := channels.Default()
		sets := [][]channels.Channel{defaults[:2], defaults[2:]}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() { _, errs[i] = s.Replace(ctx, sets[i%2]) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		tb, _, err := s.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n := len(tb.Channels())
		if n != len(sets[0]) && n != len(sets[1]) {
			t.Errorf("%d channels: a mix of two sets", n)
		}
	})
}
