package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	maintenancev1 "github.com/mallplatform/partnerapi/gen/mp/maintenance/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/maintenance"
)

const adminMaintenanceUsage = `usage: mpserver admin maintenance <on|off> --environment sandbox|production [flags]

Switches an environment's partner routes into maintenance and out of it
through core's MaintenanceAdminService, as an internal caller (create one
with: mpserver admin create-internal-caller --name ops --services
mp.maintenance.v1.MaintenanceAdminService). Every gateway replica of the
environment follows within 5 s. While on, partner routes answer 503
MAINTENANCE with Retry-After; health, readiness, metrics and the OpenAPI
document keep answering, the consent page shows a maintenance page, and
webhook deliveries keep flowing.

  on   --environment E [--until TIME] [--message TEXT]
       TIME is an RFC 3339 time (2026-11-27T05:00:00+08:00) or a duration from
       now (90m); Retry-After counts down to it. Maintenance does not end by
       itself at TIME: run off. Running on again replaces until and message.
  off  --environment E

flags: --core-addr ($MP_CORE_ADDR), --token ($MP_INTERNAL_CALLER_TOKEN), --core-tls-ca ($MP_CORE_TLS_CA),
--core-tls-cert, --core-tls-key, --core-tls-server-name (as the gateway role's)
`

// runAdminMaintenance switches maintenance over core's internal admin
// service, so every replica of core and the gateway sees one state.
func runAdminMaintenance(ctx context.Context, args []string, stdout, stderr io.Writer, dial ...grpc.DialOption) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, adminMaintenanceUsage)
		return nil
	}
	cmd, rest := args[0], args[1:]
	var core adminCore
	var environment, untilFlag, message string
	fs := newFlagSet("admin maintenance "+cmd, stderr)
	core.register(fs, "mp.maintenance.v1.MaintenanceAdminService")
	fs.StringVar(&environment, "environment", "", "sandbox or production")
	fs.StringVar(&untilFlag, "until", "", "the expected end: an RFC 3339 time or a duration from now (on only)")
	fs.StringVar(&message, "message", "", "what partners and sellers are told (on only)")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("admin maintenance %s takes no arguments (got %q)", cmd, fs.Args())
	}
	if environment != maintenance.Sandbox && environment != maintenance.Production {
		return errors.New("admin maintenance needs --environment sandbox or --environment production")
	}
	if core.token == "" {
		return errors.New("admin maintenance needs --token (or MP_INTERNAL_CALLER_TOKEN): an internal caller's token")
	}
	var req func(context.Context, maintenancev1.MaintenanceAdminServiceClient) (*maintenancev1.MaintenanceResponse, error)
	switch cmd {
	case "on":
		until, err := parseUntil(untilFlag, time.Now())
		if err != nil {
			return err
		}
		in := &maintenancev1.SetMaintenanceRequest{Environment: environment, Message: message}
		if !until.IsZero() {
			in.Until = timestamppb.New(until)
		}
		req = func(ctx context.Context, c maintenancev1.MaintenanceAdminServiceClient) (*maintenancev1.MaintenanceResponse, error) {
			return c.SetMaintenance(ctx, in)
		}
	case "off":
		if untilFlag != "" || message != "" {
			return errors.New("admin maintenance off takes no --until or --message")
		}
		req = func(ctx context.Context, c maintenancev1.MaintenanceAdminServiceClient) (*maintenancev1.MaintenanceResponse, error) {
			return c.ClearMaintenance(ctx, &maintenancev1.ClearMaintenanceRequest{Environment: environment})
		}
	default:
		fmt.Fprint(stderr, adminMaintenanceUsage)
		return errors.New("unknown admin maintenance command " + cmd)
	}
	conn, err := core.dial(dial...)
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, adminCallTimeout)
	defer cancel()
	resp, err := req(ctx, maintenancev1.NewMaintenanceAdminServiceClient(conn))
	if err != nil {
		code, msg := apierr.FromStatus(status.Convert(err))
		return fmt.Errorf("core refused the switch: %s: %s", apierr.Name(code), msg)
	}
	d := resp.GetData()
	out := map[string]any{"environment": d.GetEnvironment(), "on": d.GetOn(), "message": d.GetMessage(),
		"setBy": d.GetSetBy(), "updatedAt": d.GetUpdatedAt().AsTime().UTC().Format(time.RFC3339)}
	if d.GetUntil() != nil {
		out["until"] = d.GetUntil().AsTime().UTC().Format(time.RFC3339)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// parseUntil reads --until: empty (not said), an RFC 3339 time, or a
// positive duration from now.
func parseUntil(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("--until %q: want an RFC 3339 time (2026-11-27T05:00:00+08:00) or a positive duration (90m)", s)
	}
	return now.Add(d), nil
}
