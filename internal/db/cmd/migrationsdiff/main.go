// Command migrationsdiff writes the next PostgreSQL migration from the ent
// schema, or checks that none is needed.
//
//	go run ./internal/db/cmd/migrationsdiff -name add_widgets   # write a migration
//	go run ./internal/db/cmd/migrationsdiff -check              # CI: fail on drift
//	go run ./internal/db/cmd/migrationsdiff -rehash             # after a hand-written migration
//
// It needs a PostgreSQL server where it may create and drop a scratch
// database: POSTGRES_ADMIN_DSN, or the local default.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mallplatform/partnerapi/internal/db/schemadiff"
)

func main() {
	var (
		dir      = flag.String("dir", "internal/db/migrations", "goose migration directory")
		name     = flag.String("name", "", "name of the new migration (snake_case)")
		check    = flag.Bool("check", false, "fail if the schema and the migrations have drifted; write nothing")
		rehash   = flag.Bool("rehash", false, "rewrite atlas.sum from the files in -dir")
		adminDSN = flag.String("admin-dsn", schemadiff.AdminDSN(), "PostgreSQL DSN allowed to CREATE and DROP DATABASE")
	)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	switch {
	case *rehash:
		if err := schemadiff.Rehash(*dir); err != nil {
			fail(err)
		}
		fmt.Println("atlas.sum rewritten")
	case *check:
		err := schemadiff.Check(ctx, *adminDSN, *dir)
		var drift *schemadiff.DriftError
		if errors.As(err, &drift) {
			fmt.Fprintln(os.Stderr, drift.Error())
			fmt.Fprintln(os.Stderr, "run: make migrations-diff NAME=<what_changed>")
			os.Exit(1)
		}
		if err != nil {
			fail(err)
		}
		fmt.Println("migrations are in step with the ent schema")
	default:
		if *name == "" {
			fmt.Fprintln(os.Stderr, "usage: migrationsdiff -name <migration_name> | -check | -rehash")
			os.Exit(2)
		}
		files, err := schemadiff.Diff(ctx, *adminDSN, *dir, *name)
		if err != nil {
			fail(err)
		}
		if len(files) == 0 {
			fmt.Println("no changes: migrations already match the ent schema")
			return
		}
		for _, f := range files {
			fmt.Println("wrote", f)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "migrationsdiff:", err)
	os.Exit(1)
}
