package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An operator loads the category tree into a database that has none, from
// the built-in file or an edited copy, without the key that seals app
// secrets; on a database that has a tree nothing is written.
func TestAdminLoadsTheTaxonomy(t *testing.T) {
	path := sqliteFile(t)
	out, err := admin(t, path, "load-taxonomy")
	if err != nil {
		t.Fatal(err)
	}
	if out["loaded"] != true || out["source"] != "built-in" || out["categories"].(float64) < 100 || out["attributes"].(float64) < 10 {
		t.Fatalf("first load: %v", out)
	}
	out, err = admin(t, path, "load-taxonomy")
	if err != nil || out["loaded"] != false || out["note"] == nil {
		t.Fatalf("second load: %v %v", out, err)
	}

	custom := filepath.Join(t.TempDir(), "tree.json")
	doc := `{"categories":[{"id":"900001","name":"Pets","children":[{"id":"900002","name":"Pet Food","attributes":[{"slug":"brand","name":"Brand","type":"TEXT","mandatory":true}]}]}]}`
	if err := os.WriteFile(custom, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err = admin(t, sqliteFile(t), "load-taxonomy", "--file", custom)
	if err != nil || out["loaded"] != true || out["categories"] != float64(2) || out["attributes"] != float64(1) {
		t.Fatalf("custom tree: %v %v", out, err)
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"categories":[{"id":"pets","name":"Pets"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := admin(t, sqliteFile(t), "load-taxonomy", "--file", bad); err == nil || !strings.Contains(err.Error(), "decimal number") {
		t.Fatalf("a tree with a bad id: %v", err)
	}
}
