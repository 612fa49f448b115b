// Command mploadtest measures the cost of the platform's request path: signed
// GET /open/v1/orders/{id} through gateway → core → PostgreSQL beside a bare
// net/http + pgx server that runs the same reads and writes the same JSON.
//
//	baseline  serve the bare handler
//	run       load one target with freshly signed requests
//	compare   the whole procedure on a fresh database (see docs/performance.md)
//
// Load only ever goes to loopback addresses.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/mallplatform/partnerapi/internal/timerslack"
)

const usage = `usage: mploadtest <command> [flags]

commands:
  baseline  --database-url DSN --addr 127.0.0.1:PORT [--seller ID] [--timer-slack D]
            bare net/http + pgx server for GET /open/v1/orders/{id}
  run       --target URL --credentials FILE [--app full] [--seller 0]
            (--rate N | --max [--workers W]) --duration D
            signed load against one target; exits 1 on unexpected answers
  compare   [--duration 15s] [--workers 16] [--rate 1000] ...
            fresh database, core + gateway + baseline, max-throughput runs
            of both, then --rate against the platform; cleans up after

"mploadtest <command> -h" lists a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "mploadtest:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "baseline":
		return baselineCommand(ctx, args[1:], stderr)
	case "run":
		return runCommand(ctx, args[1:], stdout, stderr)
	case "compare":
		return compareCommand(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func baselineCommand(ctx context.Context, args []string, stderr io.Writer) error {
	cfg := baselineConfig{showEmail: true}
	fs := flag.NewFlagSet("baseline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.databaseURL, "database-url", os.Getenv("MP_DATABASE_URL"), "PostgreSQL URL of a migrated, seeded platform database ($MP_DATABASE_URL)")
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8090", "loopback address to listen on")
	fs.StringVar(&cfg.seller, "seller", "", "seller id for requests without "+"X-Platform-Seller-Id")
	fs.IntVar(&cfg.maxConns, "db-max-conns", 0, "PostgreSQL pool size (0: pgx's default, max(4, cores), as core)")
	fs.BoolVar(&cfg.showEmail, "buyer-email", true, "render buyerEmail, as for an app holding customer:email:read")
	slack := fs.Duration("timer-slack", 0, "timer slack of every thread, as mpserver's MP_TIMER_SLACK (0: the slack it was started with, Linux's 50µs by default)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// Executes the baseline again when the slack is to change; nothing has
	// started yet.
	if err := timerslack.Apply(*slack); err != nil {
		return err
	}
	return serveBaseline(ctx, cfg, stderr, nil)
}

func numCPU() int { return runtime.NumCPU() }
