package channels

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sort"
	"strconv"
	"time"
)

// Stored is one channel row: the document as written, and the active
// column, which wins over the document's own flag.
type Stored struct {
	ID        string
	Document  []byte
	Active    bool
	UpdatedAt time.Time
}

// version is a digest of the stored set (ids, active flags and documents in
// id order): equal sets give equal versions on every replica and backend,
// so a replica rebuilds its Tables only when the set changed.
func version(rows []Stored) string {
	sorted := make([]Stored, len(rows))
	copy(sorted, rows)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	h := sha256.New()
	for _, r := range sorted {
		h.Write([]byte(r.ID))
		h.Write([]byte{0})
		h.Write([]byte(strconv.FormatBool(r.Active)))
		h.Write([]byte{0})
		h.Write(r.Document)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// compile decodes and checks stored rows and builds their Tables. A row
// that no longer passes Check (written by an older release, or by hand)
// fails the load: quoting on half a set would misprice silently.
func compile(rows []Stored) (*Tables, error) {
	if len(rows) == 0 {
		return nil, ErrNoChannels
	}
	chs := make([]Channel, len(rows))
	for i, r := range rows {
		c, err := Decode(r.Document)
		if err != nil {
			return nil, err
		}
		if c.ID != r.ID {
			return nil, errors.New("channels: stored document " + r.ID + " names another id")
		}
		c.Active = r.Active
		chs[i] = c
	}
	return Build(chs)
}

// ErrNoChannels: the store holds no channel (not seeded yet).
var ErrNoChannels = errors.New("channels: no shipping channel is stored")

// rows turns channels into the rows to store.
func rows(chs []Channel) ([]Stored, error) {
	if len(chs) == 0 {
		return nil, ErrNoChannels
	}
	out := make([]Stored, len(chs))
	for i, c := range chs {
		if err := Check(c); err != nil {
			return nil, err
		}
		doc, err := Encode(c)
		if err != nil {
			return nil, err
		}
		out[i] = Stored{ID: c.ID, Document: doc, Active: c.Active}
	}
	return out, nil
}

// SeedDefault stores the built-in channels when the store holds none and
// reports whether it did; on a store with channels it changes nothing, so
// the migrate step and the dev role run it on every start.
func SeedDefault(ctx context.Context, s *EntStore) (bool, error) {
	chs, err := Default()
	if err != nil {
		return false, err
	}
	return s.SeedIfEmpty(ctx, chs)
}
