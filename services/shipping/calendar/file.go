package calendar

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// The shipped calendar files, one per year (data/2026.json): the migrate
// step loads them into a database whose calendar is empty, and operators
// import edited copies with mpserver admin calendar import.
//
//go:embed data/*.json
var shipped embed.FS

// File is a calendar file: its days and, for people, what it holds.
type File struct {
	About string    `json:"about,omitempty"`
	Days  []FileDay `json:"days"`
}

// FileDay is a day as the file spells it.
type FileDay struct {
	Date         string `json:"date"`
	Kind         Kind   `json:"kind"`
	Name         string `json:"name"`
	Proclamation string `json:"proclamation,omitempty"`
	Tentative    bool   `json:"tentative,omitempty"`
	Scope        string `json:"scope,omitempty"`
}

// MaxNameLen bounds a day's name and proclamation (the columns' limit).
const MaxNameLen = 200

// Day checks the file's day and returns it.
func (f FileDay) Day() (Day, error) {
	d, err := ParseDate(f.Date)
	if err != nil {
		return Day{}, err
	}
	switch {
	case !f.Kind.Valid():
		return Day{}, fmt.Errorf("calendar: %s: kind %q is not REGULAR_HOLIDAY, SPECIAL_NON_WORKING or SPECIAL_WORKING", f.Date, f.Kind)
	case strings.TrimSpace(f.Name) == "" || len(f.Name) > MaxNameLen:
		return Day{}, fmt.Errorf("calendar: %s: name must have 1 to %d characters", f.Date, MaxNameLen)
	case len(f.Proclamation) > MaxNameLen:
		return Day{}, fmt.Errorf("calendar: %s: proclamation is longer than %d characters", f.Date, MaxNameLen)
	case !ValidScope(f.Scope):
		return Day{}, fmt.Errorf("calendar: %s: scope %q is not a PSGC region or province code", f.Date, f.Scope)
	case f.Tentative && !f.Kind.NonWorking():
		return Day{}, fmt.Errorf("calendar: %s: only a holiday can be tentative", f.Date)
	}
	return Day{Date: d, Kind: f.Kind, Name: f.Name, Proclamation: f.Proclamation, Tentative: f.Tentative, Scope: f.Scope}, nil
}

// FileDayOf is d as a file spells it.
func FileDayOf(d Day) FileDay {
	return FileDay{Date: d.Date.String(), Kind: d.Kind, Name: d.Name, Proclamation: d.Proclamation, Tentative: d.Tentative, Scope: d.Scope}
}

// Parse reads a calendar file strictly (unknown fields and a day listed
// twice for one scope are refused).
func Parse(b []byte) ([]Day, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("calendar: the file is not a calendar file: %w", err)
	}
	if len(f.Days) == 0 {
		return nil, fmt.Errorf("calendar: the file lists no days")
	}
	seen := map[string]bool{}
	days := make([]Day, 0, len(f.Days))
	for _, fd := range f.Days {
		d, err := fd.Day()
		if err != nil {
			return nil, err
		}
		key := d.Date.String() + "/" + d.Scope
		if seen[key] {
			return nil, fmt.Errorf("calendar: %s is listed twice for scope %q", d.Date, d.Scope)
		}
		seen[key] = true
		days = append(days, d)
	}
	return days, nil
}

// Load reads a calendar file from disk.
func Load(name string) ([]Day, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

// Shipped returns the days of every shipped calendar file.
func Shipped() ([]Day, error) {
	names, err := fs.Glob(shipped, "data/*.json")
	if err != nil {
		return nil, err
	}
	var all []Day
	for _, n := range names {
		b, err := shipped.ReadFile(n)
		if err != nil {
			return nil, err
		}
		days, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Base(n), err)
		}
		all = append(all, days...)
	}
	return all, nil
}
