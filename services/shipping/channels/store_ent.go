package channels

import (
	"context"
	"fmt"

	"github.com/mallplatform/partnerapi/ent"
	"github.com/mallplatform/partnerapi/ent/shippingchannel"
	"github.com/mallplatform/partnerapi/internal/db"
)

// EntStore keeps the channel set in the shipping_channels table.
type EntStore struct {
	client   *ent.Client
	postgres bool
}

// NewEntStore returns the store on d.
func NewEntStore(d *db.DB) *EntStore {
	return &EntStore{client: d.Ent, postgres: d.Driver() == db.DriverPostgres}
}

func (s *EntStore) read(ctx context.Context) ([]Stored, error) {
	rs, err := db.Client(ctx, s.client).ShippingChannel.Query().Order(ent.Asc(shippingchannel.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("channels: read: %w", err)
	}
	out := make([]Stored, len(rs))
	for i, r := range rs {
		out[i] = Stored{ID: r.ID, Document: []byte(r.Document), Active: r.Active, UpdatedAt: r.UpdatedAt}
	}
	return out, nil
}

// Load reads the stored set and compiles it, with its version (see
// version). ErrNoChannels when the table is empty.
func (s *EntStore) Load(ctx context.Context) (*Tables, string, error) {
	rs, err := s.read(ctx)
	if err != nil {
		return nil, "", err
	}
	t, err := compile(rs)
	if err != nil {
		return nil, "", err
	}
	return t, version(rs), nil
}

// Version is the stored set's version without compiling it: a replica polls
// it and calls Load only when it changed.
func (s *EntStore) Version(ctx context.Context) (string, error) {
	rs, err := s.read(ctx)
	if err != nil {
		return "", err
	}
	return version(rs), nil
}

// Replace makes chs the whole stored set in one transaction (channels not
// in chs are removed) and returns the new version. Concurrent replaces
// queue on a table lock on PostgreSQL (SQLite's BEGIN IMMEDIATE already
// serialises writers), so the last one wins whole.
func (s *EntStore) Replace(ctx context.Context, chs []Channel) (string, error) {
	rs, err := rows(chs)
	if err != nil {
		return "", err
	}
	err = db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		if s.postgres {
			if _, err := tx.ExecContext(ctx, "LOCK TABLE shipping_channels IN EXCLUSIVE MODE"); err != nil {
				return err
			}
		}
		if _, err := tx.ShippingChannel.Delete().Exec(ctx); err != nil {
			return err
		}
		return insert(ctx, tx, rs)
	})
	if err != nil {
		return "", fmt.Errorf("channels: replace: %w", err)
	}
	return version(rs), nil
}

// SeedIfEmpty stores chs when the table has no channel and reports whether
// it did. Two processes seeding an empty table at once both find it empty;
// ON CONFLICT DO NOTHING lets the second write nothing instead of failing.
func (s *EntStore) SeedIfEmpty(ctx context.Context, chs []Channel) (bool, error) {
	rs, err := rows(chs)
	if err != nil {
		return false, err
	}
	seeded := false
	err = db.WithTx(ctx, s.client, func(tx *ent.Tx) error {
		exists, err := tx.ShippingChannel.Query().Exist(ctx)
		if err != nil || exists {
			return err
		}
		seeded = true
		return insert(ctx, tx, rs)
	})
	if err != nil {
		return false, fmt.Errorf("channels: seed: %w", err)
	}
	return seeded, nil
}

func insert(ctx context.Context, tx *ent.Tx, rs []Stored) error {
	builders := make([]*ent.ShippingChannelCreate, len(rs))
	for i, r := range rs {
		builders[i] = tx.ShippingChannel.Create().SetID(r.ID).SetDocument(string(r.Document)).SetActive(r.Active)
	}
	return tx.ShippingChannel.CreateBulk(builders...).OnConflictColumns(shippingchannel.FieldID).DoNothing().Exec(ctx)
}
