package channels

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

//go:embed channels.json
var defaultJSON []byte

// Default is the built-in channel set, as shipped with this release.
func Default() ([]Channel, error) {
	return Parse(bytes.NewReader(defaultJSON))
}

// LoadFile reads and checks a channels file (load-channels --file).
func LoadFile(path string) ([]Channel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f)
}

// Parse reads a channels file strictly (an unknown field is an error),
// gives the file's zones to every channel without its own, and checks every
// channel (see Check). The result is ready to store.
func Parse(r io.Reader) ([]Channel, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("channels: %w", err)
	}
	if dec.More() {
		return nil, errors.New("channels: trailing data after the document")
	}
	if len(f.Channels) == 0 {
		return nil, errors.New("channels: the file has no channel")
	}
	seen := map[string]bool{}
	out := make([]Channel, len(f.Channels))
	for i, c := range f.Channels {
		if len(c.Zones) == 0 {
			c.Zones = f.Zones
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("channels: channel %s appears twice", c.ID)
		}
		seen[c.ID] = true
		if err := Check(c); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Decode reads one stored channel document and checks it.
func Decode(doc []byte) (Channel, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	var c Channel
	if err := dec.Decode(&c); err != nil {
		return Channel{}, fmt.Errorf("channels: stored document: %w", err)
	}
	return c, Check(c)
}

// Encode is the stored form of a channel.
func Encode(c Channel) ([]byte, error) {
	return json.Marshal(c)
}
