package db

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"postgres", Config{Driver: DriverPostgres, DSN: "postgres://x@h/db", MaxOpenConns: 20, MaxIdleConns: 5, ConnMaxLifetime: time.Hour}, ""},
		{"sqlite defaults", Config{Driver: DriverSQLite, DSN: "data/dev.db"}, ""},
		{"no driver", Config{DSN: "x"}, "driver is required"},
		{"unknown driver", Config{Driver: "mysql", DSN: "x"}, `unknown driver "mysql"`},
		{"no dsn", Config{Driver: DriverSQLite, DSN: "  "}, "DSN is required"},
		{"negative open", Config{Driver: DriverSQLite, DSN: "x", MaxOpenConns: -1}, "MaxOpenConns must be >= 0"},
		{"negative idle", Config{Driver: DriverSQLite, DSN: "x", MaxIdleConns: -1}, "MaxIdleConns must be >= 0"},
		{"idle above open", Config{Driver: DriverSQLite, DSN: "x", MaxOpenConns: 2, MaxIdleConns: 3}, "exceeds MaxOpenConns"},
		{"negative lifetime", Config{Driver: DriverSQLite, DSN: "x", ConnMaxLifetime: -time.Second}, "ConnMaxLifetime"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("Validate() = %v, want error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestSQLiteDSN(t *testing.T) {
	tests := []struct {
		in         string
		wantBase   string
		wantMemory bool
		want       map[string][]string
	}{
		{
			in:       "data/dev.db",
			wantBase: "data/dev.db",
			want: map[string][]string{
				"_pragma":      {"foreign_keys(1)", "journal_mode(WAL)", "busy_timeout(10000)", "synchronous(NORMAL)"},
				"_txlock":      {"immediate"},
				"_time_format": {"sqlite"},
				"_timezone":    {"UTC"},
			},
		},
		{
			// Settings in the DSN win over the platform's.
			in:       "file:/tmp/x.db?_pragma=busy_timeout(50)&_txlock=deferred&cache=shared",
			wantBase: "file:/tmp/x.db",
			want: map[string][]string{
				"_pragma": {"busy_timeout(50)", "foreign_keys(1)", "journal_mode(WAL)", "synchronous(NORMAL)"},
				"_txlock": {"deferred"},
				"cache":   {"shared"},
			},
		},
		{
			in:         "file::memory:?cache=shared",
			wantBase:   "file::memory:",
			wantMemory: true,
			want: map[string][]string{
				"_pragma": {"foreign_keys(1)", "busy_timeout(10000)", "synchronous(NORMAL)"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, memory, err := sqliteDSN(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			base, rawQuery, _ := strings.Cut(got, "?")
			if base != tt.wantBase || memory != tt.wantMemory {
				t.Errorf("sqliteDSN(%q) = %q (memory %v), want base %q memory %v", tt.in, got, memory, tt.wantBase, tt.wantMemory)
			}
			q, err := url.ParseQuery(rawQuery)
			if err != nil {
				t.Fatal(err)
			}
			for k, want := range tt.want {
				if got := q[k]; strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s = %v, want %v", k, got, want)
				}
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := Open(ctx, Config{Driver: "oracle", DSN: "x"}); err == nil {
		t.Error("unknown driver opened")
	}
	_, err := Open(ctx, Config{Driver: DriverPostgres, DSN: "postgres://u:s3cret@127.0.0.1:1/db?connect_timeout=2"})
	if err == nil {
		t.Fatal("unreachable PostgreSQL opened")
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error leaks the password: %v", err)
	}
	if _, err := Open(ctx, Config{Driver: DriverPostgres, DSN: "postgres://u:s3cret@[::1"}); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("malformed DSN: %v", err)
	}
	if _, err := Open(ctx, Config{Driver: DriverSQLite, DSN: t.TempDir() + "/missing/dir/x.db"}); err == nil {
		t.Error("SQLite in a missing directory opened")
	}
}
