package schema_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	entschema "entgo.io/ent/dialect/sql/schema"
	"entgo.io/ent/schema/field"

	"github.com/mallplatform/partnerapi/ent/migrate"
)

// Every int64 column is money or a stock count and every float a weight or
// dimension: none may go negative, and the database must enforce it, not only
// the Go validators. This catches a new column added without its CHECK.
func TestNumericColumnsHaveChecks(t *testing.T) {
	for _, table := range migrate.Tables {
		checks := map[string]string{}
		if table.Annotation != nil {
			for _, expr := range table.Annotation.Checks {
				col, _, _ := strings.Cut(expr, " ")
				checks[col] = expr
			}
		}
		for _, col := range table.Columns {
			if col.Type != field.TypeInt64 && col.Type != field.TypeFloat64 {
				continue
			}
			expr, ok := checks[col.Name]
			if !ok {
				t.Errorf("%s.%s has no CHECK constraint", table.Name, col.Name)
				continue
			}
			if !strings.HasSuffix(expr, ">= 0") && !strings.HasSuffix(expr, "> 0") {
				t.Errorf("%s.%s: CHECK %q is not a lower bound at zero", table.Name, col.Name, expr)
			}
		}
	}
}

// Each listing filters by seller and pages on (created_at, id); without the
// matching index a seller's listing scans the whole table.
func TestKeysetIndexes(t *testing.T) {
	want := map[string][][]string{
		"products": {{"seller_id", "created_at", "id"}, {"seller_id", "status", "created_at", "id"}},
		"orders":   {{"seller_id", "created_at", "id"}, {"seller_id", "status", "created_at", "id"}},
	}
	for _, table := range migrate.Tables {
		for _, cols := range want[table.Name] {
			found := false
			for _, idx := range table.Indexes {
				var names []string
				for _, c := range idx.Columns {
					names = append(names, c.Name)
				}
				if strings.Join(names, ",") == strings.Join(cols, ",") {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no index on (%s)", table.Name, strings.Join(cols, ", "))
			}
		}
	}
}

// Seller ownership has one definition (schema.SellerOwned): a schema that
// declares a seller_id field of its own would drift from it (a nullable
// owner, a missing edge). Only the schemas whose seller is not their owner
// keep their own field; sellerowned.go says why.
func TestSellerIDOnlyThroughMixin(t *testing.T) {
	own := map[string]bool{"authorizationsession.go": true, "sellerlogin.go": true, "developertestshop.go": true, "sellerowned.go": true}
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		declares := false
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			lit, isLit := call.Args[0].(*ast.BasicLit)
			if ok && pkg.Name == "field" && isLit && lit.Value == `"seller_id"` {
				declares = true
			}
			return true
		})
		if declares && !own[name] {
			t.Errorf("%s declares seller_id itself; embed SellerOwned (Mixin) instead", name)
		}
		if !declares && own[name] {
			t.Errorf("%s no longer declares seller_id: drop it from the exceptions", name)
		}
	}
}

// Every table with a seller_id is filtered by seller on every query: the
// column is never null where the seller owns the row, and an index starts
// with it unless the rows are only ever found by a unique key of their own.
func TestSellerOwnedTables(t *testing.T) {
	notOwned := map[string]bool{
		"authorization_sessions": true,
		// A developer account's row, found by account: seller_id names the
		// test shop it made, empty until the shop exists.
		"developer_test_shops": true,
	}
	byOwnKey := map[string]bool{"authorization_codes": true} // by the code's hash
	for _, table := range migrate.Tables {
		var col *entschema.Column
		for _, c := range table.Columns {
			if c.Name == "seller_id" {
				col = c
			}
		}
		if col == nil || notOwned[table.Name] {
			continue
		}
		if col.Nullable {
			t.Errorf("%s.seller_id is nullable", table.Name)
		}
		leads := col.Unique || byOwnKey[table.Name]
		for _, idx := range table.Indexes {
			if len(idx.Columns) > 0 && idx.Columns[0].Name == "seller_id" {
				leads = true
			}
		}
		if !leads {
			t.Errorf("%s: no index starts with seller_id", table.Name)
		}
	}
}
