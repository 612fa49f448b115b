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
	"strings"
	"syscall"

	"github.com/mallplatform/partnerapi/internal/timerslack"
)

// roles are mpserver's first arguments, in the order the usage lists them.
// A server role runs until stopped and takes the timer slack of
// MP_TIMER_SLACK (internal/timerslack says why); the one-shot commands keep
// the slack they were started with.
var roles = []role{
	{"dev", "run gateway, core and worker in one process on SQLite with a seeded sandbox", true, runDev},
	{"gateway", "run the HTTP gateway tier", true, withoutStdout(runGateway)},
	{"core", "run the gRPC core tier", true, withoutStdout(runCore)},
	{"worker", "run the background job worker (River on PostgreSQL)", true, withoutStdout(runWorker)},
	{"migrate", "apply PostgreSQL migrations (core's schema and the job queue's)", false, runMigrate},
	{"admin", `operator commands (run "mpserver admin -h")`, false, func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return runAdmin(ctx, args, os.Stdin, stdout, stderr)
	}},
}

type role struct {
	name, summary string
	server        bool
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func withoutStdout(run func(context.Context, []string, io.Writer) error) func(context.Context, []string, io.Writer, io.Writer) error {
	return func(ctx context.Context, args []string, _, stderr io.Writer) error { return run(ctx, args, stderr) }
}

func findRole(name string) (role, bool) {
	for _, r := range roles {
		if r.name == name {
			return r, true
		}
	}
	return role{}, false
}

func usage() string {
	var b strings.Builder
	b.WriteString("usage: mpserver <role> [flags]\n\nroles:\n")
	for _, r := range roles {
		fmt.Fprintf(&b, "  %-9s %s\n", r.name, r.summary)
	}
	b.WriteString("\n\"mpserver <role> -h\" lists a role's flags.\n")
	return b.String()
}

// defaultGCPercent trades memory for CPU: the tiers keep little live heap
// and are CPU-bound, so collecting at 4x the live heap instead of 2x halves
// the collector's work. GOGC and GOMEMLIMIT, when set, take precedence.
const defaultGCPercent = 400

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
	if len(os.Args) > 1 {
		if r, ok := findRole(os.Args[1]); ok && r.server {
			applyTimerSlack(os.Stderr)
		}
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
		fmt.Fprint(stderr, usage())
		return errors.New("no role given")
	}
	name, rest := args[0], args[1:]
	if r, ok := findRole(name); ok {
		return r.run(ctx, rest, stdout, stderr)
	}
	switch name {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage())
		return nil
	}
	fmt.Fprint(stderr, usage())
	return fmt.Errorf("unknown role %q", name)
}
