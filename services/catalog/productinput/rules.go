package productinput

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// maxTextRunes is the longest TEXT attribute value, in characters.
const maxTextRunes = 1000

// checkAttributeValues validates a product's attribute values against its
// category's effective attributes and returns them in compact JSON. Paths in
// messages are those of the create body.
func checkAttributeValues(v *Violations, leaf *Leaf, values []AttributeValue) []AttributeValue {
	byID := make(map[string]*Attribute, len(leaf.Attributes))
	for i := range leaf.Attributes {
		byID[leaf.Attributes[i].ID] = &leaf.Attributes[i]
	}
	seen := make(map[string]int, len(values))
	out := make([]AttributeValue, 0, len(values))
	for i, av := range values {
		path := fmt.Sprintf("attribute_values[%d]", i)
		attr, ok := byID[av.AttributeID]
		if !ok {
			v.add(path+".attribute_id", fmt.Sprintf("%q is not an attribute of category %s; see GET /open/v1/categories/%s/attributes",
				av.AttributeID, leaf.ID, leaf.ID))
			continue
		}
		if first, dup := seen[av.AttributeID]; dup {
			v.add(path+".attribute_id", fmt.Sprintf("%q is already set by attribute_values[%d]", av.AttributeID, first))
			continue
		}
		seen[av.AttributeID] = i
		compact, ok := checkValue(v, path+".value", attr, av.Value)
		if ok {
			out = append(out, AttributeValue{AttributeID: attr.ID, Value: compact})
		}
	}
	if missing := missingMandatory(leaf.Attributes, seen); missing != "" {
		v.add("attribute_values", "missing mandatory attributes of category "+leaf.ID+": "+missing)
	}
	return out
}

// missingMandatory names the mandatory attributes absent from present, as
// "Brand (100001-brand), ..." or "".
func missingMandatory(attrs []Attribute, present map[string]int) string {
	var names []string
	for _, a := range attrs {
		if _, ok := present[a.ID]; a.Mandatory && !ok {
			names = append(names, fmt.Sprintf("%s (%s)", a.Name, a.ID))
		}
	}
	return strings.Join(names, ", ")
}

// checkValue checks one value against its attribute's input type and
// returns it as compact JSON.
func checkValue(v *Violations, path string, attr *Attribute, raw json.RawMessage) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var val any
	if len(raw) == 0 || dec.Decode(&val) != nil || val == nil {
		v.add(path, "is required")
		return nil, false
	}
	bad := func(msg string) (json.RawMessage, bool) {
		v.add(path, msg)
		return nil, false
	}
	switch attr.InputType {
	case InputText:
		s, ok := val.(string)
		if !ok || strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > maxTextRunes {
			return bad(fmt.Sprintf("must be a string of 1 to %d characters", maxTextRunes))
		}
	case InputNumber:
		if _, ok := val.(json.Number); !ok {
			return bad("must be a number")
		}
	case InputBoolean:
		if _, ok := val.(bool); !ok {
			return bad("must be true or false")
		}
	case InputSelect:
		s, ok := val.(string)
		if !ok || !slices.Contains(attr.AllowedValues, s) {
			return bad("must be one of: " + strings.Join(attr.AllowedValues, ", "))
		}
	case InputMultivalue:
		list, ok := val.([]any)
		if !ok || len(list) == 0 {
			return bad("must be a non-empty array of values from: " + strings.Join(attr.AllowedValues, ", "))
		}
		seen := make(map[string]int, len(list))
		valid := true
		for i, item := range list {
			itemPath := fmt.Sprintf("%s[%d]", path, i)
			s, ok := item.(string)
			if !ok || !slices.Contains(attr.AllowedValues, s) {
				v.add(itemPath, "must be one of: "+strings.Join(attr.AllowedValues, ", "))
				valid = false
				continue
			}
			if first, dup := seen[s]; dup {
				v.add(itemPath, fmt.Sprintf("duplicates %s[%d]", path, first))
				valid = false
				continue
			}
			seen[s] = i
		}
		if !valid {
			return nil, false
		}
	case InputDate:
		s, ok := val.(string)
		if !ok || !isDate(s) {
			return bad("must be a date as YYYY-MM-DD")
		}
	default:
		return bad("this attribute cannot be set through the API")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return bad("is not valid JSON")
	}
	return buf.Bytes(), true
}

func isDate(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// Recategorise keeps the attribute values the new category defines and
// checks that its mandatory attributes are all answered. Kept values are not
// re-validated: an attribute id names one attribute wherever it is inherited,
// so a value that was valid stays valid.
func Recategorise(values []AttributeValue, leaf *Leaf) ([]AttributeValue, error) {
	defined := make(map[string]bool, len(leaf.Attributes))
	for _, a := range leaf.Attributes {
		defined[a.ID] = true
	}
	kept := make([]AttributeValue, 0, len(values))
	present := make(map[string]int, len(values))
	for i, av := range values {
		if defined[av.AttributeID] {
			kept = append(kept, av)
			present[av.AttributeID] = i
		}
	}
	if missing := missingMandatory(leaf.Attributes, present); missing != "" {
		return nil, apierr.Newf(apierr.ValidationError,
			"category: category %s (%s) requires attributes this product has no value for: %s; create the product in that category with those values instead",
			leaf.ID, leaf.Name, missing)
	}
	return kept, nil
}

// CheckImages checks what protovalidate's uri rule lets through: "https://"
// and "https:///x" are valid URIs but name no host to fetch an image from.
// Besides https URLs it accepts a file of the deployment's own uploads:
// own (the catalog's Config.ImagePrefix, "" for none) followed by a file
// name, which in dev is a plain http address.
func CheckImages(v *Violations, path string, images []string, own string) {
	for i, raw := range images {
		if name, ok := strings.CutPrefix(raw, own); ok && own != "" && name != "" && !strings.ContainsAny(name, "/?#\\") {
			continue
		}
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "https" || u.Hostname() == "" {
			v.add(fmt.Sprintf("%s[%d]", path, i), "must be an https URL with a host")
		}
	}
}

// buildVariants checks the variants of a create body and turns them into
// stored variants (without ids) plus the product's options_order, which is
// nil when no variant has options.
func buildVariants(v *Violations, in Input, ownImages string) ([]Variant, []OptionGroup) {
	out := make([]Variant, len(in.Variants))
	skus := make(map[string]int, len(in.Variants))

	// Option groups in order of first appearance: the first variant's keys in
	// the order sent, then any name a later variant introduces.
	var groups []string
	groupValues := map[string][]string{}
	seenValue := map[string]map[string]bool{}
	perVariant := make([]map[string]string, len(in.Variants))
	anyOptions := false

	for i, vi := range in.Variants {
		path := fmt.Sprintf("variants[%d]", i)
		if vi.SKU != nil {
			if first, dup := skus[*vi.SKU]; dup {
				v.add(path+".sku", fmt.Sprintf("%q is already used by variants[%d]; SKUs must be unique within a product", *vi.SKU, first))
			} else {
				skus[*vi.SKU] = i
			}
		}
		if vi.Price == nil {
			v.add(path+".price", "is required")
		}
		if vi.Stock == nil {
			v.add(path+".stock", "is required")
		}
		opts := make(map[string]string, len(vi.Options))
		for _, o := range vi.Options {
			if _, dup := opts[o.Name]; dup {
				v.add(fmt.Sprintf("%s.options[%q]", path, o.Name), "duplicate option name")
				continue
			}
			opts[o.Name] = o.Value
			if _, known := groupValues[o.Name]; !known {
				groups = append(groups, o.Name)
				groupValues[o.Name] = nil
				seenValue[o.Name] = map[string]bool{}
			}
			if !seenValue[o.Name][o.Value] {
				seenValue[o.Name][o.Value] = true
				groupValues[o.Name] = append(groupValues[o.Name], o.Value)
			}
		}
		CheckImages(v, path+".images", vi.Images, ownImages)
		perVariant[i] = opts
		anyOptions = anyOptions || len(opts) > 0

		out[i] = Variant{
			Position: i,
			SKU:      cloneStr(vi.SKU),
			Price:    cloneInt(vi.Price),
			Stock:    cloneInt(vi.Stock),
			Images:   append([]string(nil), vi.Images...),
		}
		if vi.Title != nil {
			out[i].Title = *vi.Title
		}
		if len(out[i].Images) == 0 {
			out[i].Images = append([]string(nil), in.Images...)
		}
		out[i].Weight, out[i].Dimensions = variantFigures(v, path, in, vi)
	}
	if !anyOptions {
		return out, nil
	}

	// Every variant names every group: a variant without one of the axes
	// cannot be placed in the option picker.
	combos := make(map[string]int, len(in.Variants))
	for i, opts := range perVariant {
		var missing []string
		for _, g := range groups {
			if _, ok := opts[g]; !ok {
				missing = append(missing, g)
			}
		}
		if len(missing) > 0 {
			v.add(fmt.Sprintf("variants[%d].options", i), fmt.Sprintf("missing %s; when any variant has options, every variant must have the same option names (%s)",
				strings.Join(missing, ", "), strings.Join(groups, ", ")))
			continue
		}
		parts := make([]string, len(groups))
		key := make([]string, len(groups))
		for j, g := range groups {
			parts[j] = g + ": " + opts[g]
			key[j] = opts[g]
		}
		k := strings.Join(key, "\x00")
		if first, dup := combos[k]; dup {
			v.add(fmt.Sprintf("variants[%d].options", i), fmt.Sprintf("same combination as variants[%d] (%s); each variant needs its own combination",
				first, strings.Join(parts, ", ")))
			continue
		}
		combos[k] = i
		options := make([]Option, len(groups))
		for j, g := range groups {
			options[j] = Option{Name: cloneStr(&g), Value: cloneStr(ptrTo(opts[g]))}
		}
		out[i].Options = options
	}
	order := make([]OptionGroup, len(groups))
	for i, g := range groups {
		order[i] = OptionGroup{Title: g, Values: groupValues[g]}
	}
	return out, order
}

// variantFigures are a variant's weight and dimensions: its own, or with
// use_variant_dimensions false, the product's for each figure it leaves out.
func variantFigures(v *Violations, path string, in Input, vi VariantInput) (float64, Dimensions) {
	if in.UseVariantDimensions {
		// The create rules (CEL) already demand all four; this keeps callers
		// that skip the validator from storing zeros silently.
		figures := []struct {
			name string
			f    *float64
		}{{"weight", vi.Weight}, {"length", vi.Length}, {"width", vi.Width}, {"height", vi.Height}}
		for _, fig := range figures {
			if fig.f == nil {
				v.add(path+"."+fig.name, "is required when use_variant_dimensions is true")
			}
		}
		return deref(vi.Weight), Dimensions{Length: deref(vi.Length), Width: deref(vi.Width), Height: deref(vi.Height)}
	}
	pick := func(own, product *float64) float64 {
		if own != nil {
			return *own
		}
		return deref(product)
	}
	return pick(vi.Weight, in.Weight), Dimensions{
		Length: pick(vi.Length, in.Length),
		Width:  pick(vi.Width, in.Width),
		Height: pick(vi.Height, in.Height),
	}
}

// productFigures are the product-level weight and dimensions: derived from
// the variants (the largest of each) with use_variant_dimensions, as sent
// otherwise.
func productFigures(in Input, variants []Variant) (float64, Dimensions) {
	if !in.UseVariantDimensions {
		return deref(in.Weight), Dimensions{Length: deref(in.Length), Width: deref(in.Width), Height: deref(in.Height)}
	}
	var w float64
	var d Dimensions
	for _, vr := range variants {
		w = max(w, vr.Weight)
		d.Length = max(d.Length, vr.Dimensions.Length)
		d.Width = max(d.Width, vr.Dimensions.Width)
		d.Height = max(d.Height, vr.Dimensions.Height)
	}
	return w, d
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func ptrTo[T any](v T) *T { return &v }

func cloneStr(s *string) *string {
	if s == nil {
		return nil
	}
	return ptrTo(*s)
}

func cloneInt(n *int64) *int64 {
	if n == nil {
		return nil
	}
	return ptrTo(*n)
}
