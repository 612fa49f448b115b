// Package taxonomy is the marketplace's category tree as data: categories,
// their attributes and the values those accept, in categories.json. The
// sandbox seeds it, and operators load it into a production database with
// "mpserver admin load-taxonomy" (an edited copy with --file). It knows
// nothing of storage: the catalog service flattens and stores it.
package taxonomy

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// Attribute types a category attribute may take.
var attributeTypes = map[string]bool{"TEXT": true, "NUMBER": true, "BOOLEAN": true, "DATE": true, "SELECT": true, "MULTIVALUE": true}

// Node is a category with its attributes and children, in display order.
type Node struct {
	// ID is a decimal number, stable forever: partners send it back.
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Retired categories stay in the tree (old products reference them)
	// but are not listed and take no new products.
	Retired    bool        `json:"retired,omitempty"`
	Attributes []Attribute `json:"attributes,omitempty"`
	Children   []Node      `json:"children,omitempty"`
}

// Attribute is a property products of the category (and its descendants)
// carry.
type Attribute struct {
	// Slug is unique within its category; the attribute's id is the
	// category's id, "-" and the slug.
	Slug      string `json:"slug"`
	Name      string `json:"name"`
	Type      string `json:"type"`
	Mandatory bool   `json:"mandatory,omitempty"`
	// Values are the accepted values of SELECT and MULTIVALUE.
	Values []string `json:"values,omitempty"`
	Unit   string   `json:"unit,omitempty"`
}

// Tree is a whole taxonomy: its root categories.
type Tree struct {
	Categories []Node `json:"categories"`
}

//go:embed categories.json
var defaultJSON []byte

// Default is the marketplace's taxonomy as shipped with this release.
func Default() (*Tree, error) {
	return Parse(strings.NewReader(string(defaultJSON)))
}

// Load reads a taxonomy file.
func Load(path string) (*Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f)
}

// Parse reads a taxonomy strictly (an unknown field is an error) and checks
// it.
func Parse(r io.Reader) (*Tree, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var t Tree
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("taxonomy: %w", err)
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return &t, nil
}

var (
	idPattern   = regexp.MustCompile(`^[1-9][0-9]{0,17}$`)
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// Validate reports every problem of the tree: ids that are not decimal
// numbers or appear twice, nameless categories, attributes of an unknown
// type, choices without values, values where none belong, repeated slugs.
func (t *Tree) Validate() error {
	if len(t.Categories) == 0 {
		return errors.New("taxonomy: no category")
	}
	seen := map[string]bool{}
	var errs []error
	var walk func(n Node)
	walk = func(n Node) {
		where := fmt.Sprintf("category %q", n.ID)
		switch {
		case !idPattern.MatchString(n.ID):
			errs = append(errs, fmt.Errorf("%s: an id is a decimal number", where))
		case seen[n.ID]:
			errs = append(errs, fmt.Errorf("%s: the id is used twice", where))
		}
		seen[n.ID] = true
		if strings.TrimSpace(n.Name) == "" || len(n.Name) > 120 {
			errs = append(errs, fmt.Errorf("%s: a name is 1 to 120 characters", where))
		}
		slugs := map[string]bool{}
		for _, a := range n.Attributes {
			at := fmt.Sprintf("%s, attribute %q", where, a.Slug)
			switch {
			case !slugPattern.MatchString(a.Slug):
				errs = append(errs, fmt.Errorf("%s: a slug is lowercase words joined by '-'", at))
			case slugs[a.Slug]:
				errs = append(errs, fmt.Errorf("%s: the slug is used twice", at))
			}
			slugs[a.Slug] = true
			choice := a.Type == "SELECT" || a.Type == "MULTIVALUE"
			switch {
			case !attributeTypes[a.Type]:
				errs = append(errs, fmt.Errorf("%s: unknown type %q", at, a.Type))
			case choice && len(a.Values) == 0:
				errs = append(errs, fmt.Errorf("%s: a %s attribute lists its values", at, a.Type))
			case !choice && len(a.Values) > 0:
				errs = append(errs, fmt.Errorf("%s: a %s attribute takes no values", at, a.Type))
			}
			if strings.TrimSpace(a.Name) == "" {
				errs = append(errs, fmt.Errorf("%s: an attribute has a name", at))
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	for _, root := range t.Categories {
		walk(root)
	}
	return errors.Join(errs...)
}
