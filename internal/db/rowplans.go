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
	mu sync.Mutex
	// byMap holds a plan set per connection (its type map). Connections
	// come and go with the pool; the map is emptied when it grows past
	// maxPlannedConns, which only a pool churning connections reaches.
	byMap map[*pgtype.Map]*columnPlans
}

// maxPlannedConns bounds RowPlans.byMap: well above any pool's size.
const maxPlannedConns = 256

// columnPlans is one connection's plans of a row, with what they were made
// for.
type columnPlans struct {
	oids    []uint32
	formats []int16
	types   []reflect.Type
	plans   []pgtype.ScanPlan
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
	cp := r.plans.forRow(rows.Conn().TypeMap(), fields, r.dest)
	for i, dst := range r.dest {
		if dst == nil {
			continue // skipped, as pgx skips a nil destination
		}
		if err := cp.plans[i].Scan(values[i], dst); err != nil {
			return pgx.ScanArgError{ColumnIndex: i, FieldName: fields[i].Name, Err: err}
		}
	}
	return nil
}

// forRow returns the plans of a row on the connection whose type map is m,
// making them when there are none yet or the row is not the one they were
// made for.
func (p *RowPlans) forRow(m *pgtype.Map, fields []pgconn.FieldDescription, dest []any) *columnPlans {
	p.mu.Lock()
	cp := p.byMap[m]
	p.mu.Unlock()
	if cp != nil && cp.fits(fields, dest) {
		return cp
	}
	cp = &columnPlans{
		oids:    make([]uint32, len(dest)),
		formats: make([]int16, len(dest)),
		types:   make([]reflect.Type, len(dest)),
		plans:   make([]pgtype.ScanPlan, len(dest)),
	}
	for i, dst := range dest {
		cp.oids[i], cp.formats[i], cp.types[i] = fields[i].DataTypeOID, fields[i].Format, reflect.TypeOf(dst)
		cp.plans[i] = m.PlanScan(fields[i].DataTypeOID, fields[i].Format, dst)
	}
	p.mu.Lock()
	if p.byMap == nil || len(p.byMap) >= maxPlannedConns {
		p.byMap = make(map[*pgtype.Map]*columnPlans)
	}
	p.byMap[m] = cp
	p.mu.Unlock()
	return cp
}

func (cp *columnPlans) fits(fields []pgconn.FieldDescription, dest []any) bool {
	if len(cp.plans) != len(dest) {
		return false
	}
	for i, dst := range dest {
		if cp.oids[i] != fields[i].DataTypeOID || cp.formats[i] != fields[i].Format || cp.types[i] != reflect.TypeOf(dst) {
			return false
		}
	}
	return true
}
