package webhooks

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
)

// The worker asks the queue before every first attempt whether an earlier
// event of the resource is waiting: on a queue of millions of jobs a scan
// would make each delivery slower than the last. The queries must use the
// delivery jobs' index, on PostgreSQL in the generic plan a prepared
// statement settles on after a few runs.
func TestQueueQueriesUseTheirIndex(t *testing.T) {
	dbtest.ForEachDriver(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := db.MigrateRiver(ctx, d); err != nil {
			t.Fatal(err)
		}
		queries := map[string][]any{
			earlierFirstAttemptQuery[d.Driver()]: {int64(1), "whk_1", "ord_1"},
			pendingQuery[d.Driver()]:             {"whk_1", 50},
		}
		for q, args := range queries {
			plan := explain(t, ctx, d, q, args)
			if !strings.Contains(plan, "river_job_webhook_resource") {
				t.Errorf("the query does not use river_job_webhook_resource:\n%s\nplan:\n%s", q, plan)
			}
		}
	})
}

func explain(t *testing.T, ctx context.Context, d *db.DB, q string, args []any) string {
	t.Helper()
	conn, err := d.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var rows *sql.Rows
	if d.Driver() == db.DriverSQLite {
		rows, err = conn.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
	} else {
		// The generic plan, and no scan the planner might prefer on a
		// table this small.
		for _, s := range []string{"SET plan_cache_mode = force_generic_plan", "SET enable_seqscan = off",
			"PREPARE queue_query AS " + q} {
			if _, err := conn.ExecContext(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		defer func() {
			// The connection goes back to the pool as it came.
			for _, s := range []string{"DEALLOCATE queue_query", "RESET plan_cache_mode", "RESET enable_seqscan"} {
				if _, err := conn.ExecContext(ctx, s); err != nil {
					t.Error(err)
				}
			}
		}()
		params := make([]string, len(args))
		for i, a := range args {
			params[i] = fmt.Sprint(a)
			if s, ok := a.(string); ok {
				params[i] = "'" + s + "'"
			}
		}
		rows, err = conn.QueryContext(ctx, "EXPLAIN EXECUTE queue_query("+strings.Join(params, ", ")+")")
	}
	if err != nil {
		t.Fatal(err)
	}
	var plan strings.Builder
	for _, row := range dbtest.Rows(t, rows) {
		for _, v := range row {
			plan.WriteString(dbtest.Text(v) + " ")
		}
		plan.WriteByte('\n')
	}
	return plan.String()
}
