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

	shippingv1 "github.com/mallplatform/partnerapi/gen/mp/shipping/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/services/shipping"
	"github.com/mallplatform/partnerapi/services/shipping/calendar"
)

const adminCalendarUsage = `usage: mpserver admin calendar <set|delete|import> [flags]

The shipping calendar's edits go through core's CalendarAdminService, as an
internal caller (create one with: mpserver admin create-internal-caller
--name ops --services mp.shipping.v1.CalendarAdminService). Every replica
serves an edit within 2 s.

  set     --date YYYY-MM-DD --kind REGULAR_HOLIDAY|SPECIAL_NON_WORKING|SPECIAL_WORKING --name N
          [--proclamation P] [--tentative] [--scope PSGC_REGION_OR_PROVINCE]
  delete  --date YYYY-MM-DD [--scope PSGC_REGION_OR_PROVINCE]
  import  [flags] FILE   (a calendar file like services/shipping/calendar/data/2026.json; days of the same
          date and scope are replaced, in one transaction)

flags: --core-addr ($MP_CORE_ADDR), --token ($MP_INTERNAL_CALLER_TOKEN), --core-tls-ca ($MP_CORE_TLS_CA),
--core-tls-cert, --core-tls-key, --core-tls-server-name (as the gateway role's)
`

// adminCallTimeout bounds each call to core.
const adminCallTimeout = 30 * time.Second

// runAdminCalendar edits the shipping calendar over core's internal admin
// service (not the database directly), so the edit takes the same checks
// and version bump as any other caller's.
func runAdminCalendar(ctx context.Context, args []string, stdout, stderr io.Writer, dial ...grpc.DialOption) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, adminCalendarUsage)
		return nil
	}
	cmd, rest := args[0], args[1:]
	var core adminCore
	var day calendar.FileDay
	var kind string
	fs := newFlagSet("admin calendar "+cmd, stderr)
	core.register(fs, "mp.shipping.v1.CalendarAdminService")
	fs.StringVar(&day.Date, "date", "", "the day, YYYY-MM-DD")
	fs.StringVar(&kind, "kind", "", "REGULAR_HOLIDAY, SPECIAL_NON_WORKING or SPECIAL_WORKING")
	fs.StringVar(&day.Name, "name", "", "the day's name")
	fs.StringVar(&day.Proclamation, "proclamation", "", "the proclamation that declared it")
	fs.BoolVar(&day.Tentative, "tentative", false, "an Islamic holiday awaiting its proclamation")
	fs.StringVar(&day.Scope, "scope", "", "a PSGC region or province code (empty: national)")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	day.Kind = calendar.Kind(kind)
	if core.token == "" {
		return errors.New("admin calendar needs --token (or MP_INTERNAL_CALLER_TOKEN): an internal caller's token")
	}
	var req func(context.Context, shippingv1.CalendarAdminServiceClient) (*shippingv1.CalendarEditResponse, error)
	switch cmd {
	case "set":
		if _, err := day.Day(); err != nil {
			return err
		}
		req = func(ctx context.Context, c shippingv1.CalendarAdminServiceClient) (*shippingv1.CalendarEditResponse, error) {
			return c.SetCalendarDay(ctx, &shippingv1.SetCalendarDayRequest{Day: shipping.DayInput(day)})
		}
	case "delete":
		if _, err := calendar.ParseDate(day.Date); err != nil {
			return err
		}
		req = func(ctx context.Context, c shippingv1.CalendarAdminServiceClient) (*shippingv1.CalendarEditResponse, error) {
			return c.DeleteCalendarDay(ctx, &shippingv1.DeleteCalendarDayRequest{Date: day.Date, Scope: day.Scope})
		}
	case "import":
		if fs.NArg() != 1 {
			return errors.New("admin calendar import takes one FILE")
		}
		days, err := calendar.Load(fs.Arg(0))
		if err != nil {
			return err
		}
		in := make([]*shippingv1.CalendarDayInput, len(days))
		for i, d := range days {
			in[i] = shipping.DayInput(calendar.FileDayOf(d))
		}
		req = func(ctx context.Context, c shippingv1.CalendarAdminServiceClient) (*shippingv1.CalendarEditResponse, error) {
			return c.ImportCalendar(ctx, &shippingv1.ImportCalendarRequest{Days: in})
		}
	default:
		fmt.Fprint(stderr, adminCalendarUsage)
		return errors.New("unknown admin calendar command " + cmd)
	}
	conn, err := core.dial(dial...)
	if err != nil {
		return err
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, adminCallTimeout)
	defer cancel()
	resp, err := req(ctx, shippingv1.NewCalendarAdminServiceClient(conn))
	if err != nil {
		code, msg := apierr.FromStatus(status.Convert(err))
		return fmt.Errorf("core refused the edit: %s: %s", apierr.Name(code), msg)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{"command": cmd, "days": resp.GetDays(), "version": resp.GetVersion()})
}
