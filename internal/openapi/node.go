package openapi

import (
	"bytes"
	"encoding/json"
)

// node is a JSON object that keeps its members in the order they were set,
// so the document reads top-down (openapi, info, paths, components) and its
// bytes are stable between runs.
type node struct {
	keys []string
	vals map[string]any
}

func obj(kv ...any) *node {
	n := &node{vals: map[string]any{}}
	for i := 0; i+1 < len(kv); i += 2 {
		n.set(kv[i].(string), kv[i+1])
	}
	return n
}

// set adds or replaces a member; a nil value is left out.
func (n *node) set(k string, v any) *node {
	if v == nil {
		return n
	}
	if _, ok := n.vals[k]; !ok {
		n.keys = append(n.keys, k)
	}
	n.vals[k] = v
	return n
}

func (n *node) get(k string) any { return n.vals[k] }

func (n *node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range n.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshal(n.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping (descriptions hold < and >).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
