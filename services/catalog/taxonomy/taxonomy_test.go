package taxonomy_test

import (
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/services/catalog/taxonomy"
)

func TestDefaultParses(t *testing.T) {
	tree, err := taxonomy.Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Categories) == 0 {
		t.Fatal("no root category")
	}
}

func TestParseRefusesWhatCannotBeStored(t *testing.T) {
	for name, c := range map[string]struct{ doc, want string }{
		"unknown field":     {`{"categories":[{"id":"1","name":"A","colour":"red"}]}`, "unknown field"},
		"no category":       {`{"categories":[]}`, "no category"},
		"id not a number":   {`{"categories":[{"id":"abc","name":"A"}]}`, "decimal number"},
		"id twice":          {`{"categories":[{"id":"1","name":"A","children":[{"id":"1","name":"B"}]}]}`, "used twice"},
		"no name":           {`{"categories":[{"id":"1","name":" "}]}`, "1 to 120 characters"},
		"unknown type":      {`{"categories":[{"id":"1","name":"A","attributes":[{"slug":"a","name":"A","type":"COLOUR"}]}]}`, "unknown type"},
		"choice, no values": {`{"categories":[{"id":"1","name":"A","attributes":[{"slug":"a","name":"A","type":"SELECT"}]}]}`, "lists its values"},
		"values on text":    {`{"categories":[{"id":"1","name":"A","attributes":[{"slug":"a","name":"A","type":"TEXT","values":["x"]}]}]}`, "takes no values"},
		"slug twice":        {`{"categories":[{"id":"1","name":"A","attributes":[{"slug":"a","name":"A","type":"TEXT"},{"slug":"a","name":"B","type":"TEXT"}]}]}`, "slug is used twice"},
		"bad slug":          {`{"categories":[{"id":"1","name":"A","attributes":[{"slug":"Brand Name","name":"A","type":"TEXT"}]}]}`, "lowercase words"},
	} {
		_, err := taxonomy.Parse(strings.NewReader(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error mentioning %q", name, err, c.want)
		}
	}
}
