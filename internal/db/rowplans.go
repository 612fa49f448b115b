package db

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// RowPlans keeps the scan plans of one statement's row, per connection, so
// that a statement read on every request does not plan each column again
// on every call: pgx plans a row's columns once per query (about twenty
// allocations for a row of twenty columns), and the order read is the
// hottest statement of the API. A plan is pgx's own (pgtype.Map.PlanScan),
// made for the connection's type map, and it is used again only while the
// row's column types and formats and the destinations' types are the ones
// it was made for; anything else is planned afresh. The zero value is ready
// to use; use one per statement.
type RowPlans struct {
	mu sync.RWMutex
	// byMap holds a plan set per connection (its type map). Connections
	// come and go with the pool; the map is emptied when it grows past
	// maxPlannedConns, which only a pool churning connections reaches.
	byMap map[*pgtype.Map][]columnPlan
}

// maxPlannedConns bounds RowPlans.byMap: well above any pool's size.
const maxPlannedConns = 256

// columnPlan is a column's plan on one connection, with what it was made
// for.
type columnPlan struct {
	oid    uint32
	format int16
	dest   reflect.Type
	plan   pgtype.ScanPlan
}

// Row returns the destination that a pgx.Row's Scan fills with p's plans:
// QueryRow(...).Scan(p.Row(&a, &b, ...)).
func (p *RowPlans) Row(dest ...any) pgx.RowScanner {
	return &plannedRow{plans: p, dest: dest}
}

type plannedRow struct {
	plans *RowPlans
	dest  []any
}

// ScanRow implements pgx.RowScanner.
func (r *plannedRow) ScanRow(rows pgx.Rows) error {
	fields := rows.FieldDescriptions()
	values := rows.RawValues()
	if len(fields) != len(r.dest) || len(values) != len(r.dest) {
		return fmt.Errorf("db: the row has %d columns for %d destinations", len(fields), len(r.dest))
	}
	plans := r.plans.forRow(rows.Conn().TypeMap(), fields, r.dest)
	for i, dst := range r.dest {
		if dst == nil {
			continue // skipped, as pgx skips a nil destination
		}
		if err := plans[i].plan.Scan(values[i], dst); err != nil {
			return pgx.ScanArgError{ColumnIndex: i, FieldName: fields[i].Name, Err: err}
		}
	}
	return nil
}

// forRow returns the plans of a row on the connection whose type map is m,
// making them when there are none yet or the row is not the one they were
// made for.
func (p *RowPlans) forRow(m *pgtype.Map, fields []pgconn.FieldDescription, dest []any) []columnPlan {
	p.mu.RLock()
	plans := p.byMap[m]
	p.mu.RUnlock()
	if fits(plans, fields, dest) {
		return plans
	}
	plans = make([]columnPlan, len(dest))
	for i, dst := range dest {
		f := fields[i]
		plans[i] = columnPlan{oid: f.DataTypeOID, format: f.Format, dest: reflect.TypeOf(dst),
			plan: m.PlanScan(f.DataTypeOID, f.Format, dst)}
	}
	p.mu.Lock()
	if p.byMap == nil || len(p.byMap) >= maxPlannedConns {
		p.byMap = make(map[*pgtype.Map][]columnPlan)
	}
	p.byMap[m] = plans
	p.mu.Unlock()
	return plans
}

// fits reports whether plans were made for this row and these destinations
// (false when there are none).
func fits(plans []columnPlan, fields []pgconn.FieldDescription, dest []any) bool {
	if len(plans) != len(dest) || len(plans) == 0 {
		return false
	}
	for i, dst := range dest {
		c := plans[i]
		if c.oid != fields[i].DataTypeOID || c.format != fields[i].Format || c.dest != reflect.TypeOf(dst) {
			return false
		}
	}
	return true
}
