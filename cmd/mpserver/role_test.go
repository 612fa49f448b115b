package main

import (
	"context"
	"database/sql"
	"io"
	"testing"
	"time"
)

// startRole runs mpserver with args in this process (its output dropped)
// and returns stop, which ends it and fails the test unless it stops
// cleanly within a minute.
func startRole(t *testing.T, args ...string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, io.Discard, io.Discard) }()
	return func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s role: %v", args[0], err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("the %s role did not stop", args[0])
		}
	}
}

// riverJobStates lists the queue's jobs of kind ("" for every kind) with
// their state and errors, for a test's failure message.
func riverJobStates(d *sql.DB, kind string) []string {
	rows, err := d.Query("SELECT kind || ' ' || state || ': ' || coalesce(CAST(errors AS TEXT), '') FROM river_job WHERE $1 = '' OR kind = $1", kind)
	if err != nil {
		return []string{err.Error()}
	}
	defer rows.Close()
	var states []string
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		states = append(states, s)
	}
	return states
}
