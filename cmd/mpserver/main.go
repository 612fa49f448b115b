// Command mpserver is the platform's one server binary. Its first argument
// picks the role:
//
//	gateway   HTTP tier for /open/v1 (stateless; Redis for shared counters)
//	core      gRPC tier with the business services (PostgreSQL)
//	worker    durable background jobs on River (PostgreSQL)
//	dev       gateway, core and worker in one process on a SQLite file with a seeded sandbox
//	migrate   applies the versioned PostgreSQL migrations (core's and River's)
//	admin     operator commands (developer accounts, apps, test shops)
//
// Every flag can also be set through the environment variable named in its
// help text, which is how deployments configure the tiers.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/mallplatform/partnerapi/internal/timerslack"
)

const usage = `usage: mpserver <role> [flags]

roles:
  dev       run gateway, core and worker in one process on SQLite with a seeded sandbox
  gateway   run the HTTP gateway tier
  core      run the gRPC core tier
  worker    run the background job worker (River on PostgreSQL)
  migrate   apply PostgreSQL migrations (core's schema and the job queue's)
  admin     operator commands (run "mpserver admin -h")

"mpserver <role> -h" lists a role's flags.
`

// defaultGCPercent trades memory for CPU: the tiers keep little live heap
// and are CPU-bound, so collecting at 4x the live heap instead of 2x halves
// the collector's work. GOGC and GOMEMLIMIT, when set, take precedence.
const defaultGCPercent = 400

// serverRoles run until stopped and take the timer slack of MP_TIMER_SLACK
// (internal/timerslack says why); the one-shot commands keep the slack they
// were started with.
var serverRoles = map[string]bool{"dev": true, "gateway": true, "core": true, "worker": true}

// applyTimerSlack executes the program again with the configured timer slack
// unless it already runs with it. A value that does not parse stops the role,
// as every setting's does; a kernel that refuses the slack only costs speed, so
// the role starts with a warning.
func applyTimerSlack(stderr io.Writer) {
	slack, err := timerslack.Parse(os.Getenv(timerslack.EnvVar))
	if err != nil {
		fmt.Fprintln(stderr, "mpserver:", err)
		os.Exit(1)
	}
	if err := timerslack.Apply(slack); err != nil {
		fmt.Fprintln(stderr, "mpserver: warning:", err)
	}
}

func main() {
	if len(os.Args) > 1 && serverRoles[os.Args[1]] {
		applyTimerSlack(os.Stderr)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "mpserver:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no role given")
	}
	role, rest := args[0], args[1:]
	switch role {
	case "dev":
		return runDev(ctx, rest, stdout, stderr)
	case "gateway":
		return runGateway(ctx, rest, stderr)
	case "core":
		return runCore(ctx, rest, stderr)
	case "worker":
		return runWorker(ctx, rest, stderr)
	case "migrate":
		return runMigrate(ctx, rest, stdout, stderr)
	case "admin":
		return runAdmin(ctx, rest, os.Stdin, stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown role %q", role)
}
