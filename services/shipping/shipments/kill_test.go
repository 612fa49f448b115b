package shipments_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/internal/db/dbtest"
	"github.com/mallplatform/partnerapi/services/shipping/carrier"
	"github.com/mallplatform/partnerapi/services/shipping/carrier/simulated"
	"github.com/mallplatform/partnerapi/services/shipping/shipments"
)

// The environment of the child process TestBookKilledProcess starts.
const (
	killDSNEnv     = "SHIPMENTS_KILL_TEST_DSN"
	killCourierEnv = "SHIPMENTS_KILL_TEST_COURIER"
	killedExit     = 3
)

// fileCourier is a courier outside both processes: its bookings (one line
// per reference) and the calls it received (one line each) live in files,
// so what the killed process did is still there for the retry to meet.
type fileCourier struct{ dir string }

func (f fileCourier) lines(name string) []string {
	b, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func (f fileCourier) add(name, line string) error {
	fh, err := os.OpenFile(filepath.Join(f.dir, name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(fh, line); err != nil {
		_ = fh.Close()
		return err
	}
	return fh.Close()
}

func (f fileCourier) Book(_ context.Context, req carrier.BookRequest) (carrier.Booking, error) {
	if err := f.add("calls", req.Reference); err != nil {
		return carrier.Booking{}, err
	}
	b := carrier.Booking{Reference: req.Reference, TrackingNumber: simulated.TrackingNumber(req.Reference),
		TrackingCompany: "File Express", CarrierStatus: "Booked"}
	for _, ref := range f.lines("bookings") {
		if ref == req.Reference {
			return b, nil
		}
	}
	return b, f.add("bookings", req.Reference)
}

func (fileCourier) Void(context.Context, carrier.VoidRequest) error { return nil }

func (fileCourier) Track(context.Context, carrier.TrackRequest) ([]carrier.Event, error) {
	return nil, carrier.ErrNotFound
}

func (fileCourier) LabelData(context.Context, carrier.LabelRequest) (carrier.Label, error) {
	return carrier.Label{}, carrier.ErrNotFound
}

// The kill test with a real process: a child books on PostgreSQL and exits
// inside the recording transaction, after the courier booked and before the
// commit (PostgreSQL aborts the transaction when the connection drops). The
// retry reuses the reference and the courier has booked one parcel.
func TestBookKilledProcess(t *testing.T) {
	if dsn := os.Getenv(killDSNEnv); dsn != "" {
		killedChild(dsn, os.Getenv(killCourierEnv))
		return
	}
	var dsn string
	d := dbtest.Postgres(t, func(c *db.Config) { dsn = c.DSN })
	addSeller(t, d, "sel_a")
	courier := fileCourier{dir: t.TempDir()}

	cmd := exec.Command(os.Args[0], "-test.run", "^TestBookKilledProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), killDSNEnv+"="+dsn, killCourierEnv+"="+courier.dir)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != killedExit {
		t.Fatalf("the child ended with %v, want exit %d:\n%s", err, killedExit, out)
	}
	if calls, bookings := courier.lines("calls"), courier.lines("bookings"); len(calls) != 1 || len(bookings) != 1 {
		t.Fatalf("before the retry: calls %v, bookings %v", calls, bookings)
	}

	ctx := context.Background()
	st := shipments.NewEntStore(d)
	pending, err := st.LiveByOrder(ctx, "sel_a", "ord_killed")
	if err != nil || pending.Status != shipments.Pending {
		t.Fatalf("after the kill: %+v, %v; want the pending row", pending, err)
	}
	sh, err := booker(st, courier).Book(ctx, bookRequest("ord_killed"))
	if err != nil {
		t.Fatal(err)
	}
	calls, bookings := courier.lines("calls"), courier.lines("bookings")
	if len(calls) != 2 || calls[0] != calls[1] || len(bookings) != 1 || bookings[0] != pending.Reference {
		t.Fatalf("after the retry: calls %v, bookings %v; want the reference %s twice and booked once", calls, bookings, pending.Reference)
	}
	if sh.ID != pending.ID || sh.TrackingNumber != simulated.TrackingNumber(pending.Reference) {
		t.Fatalf("retry booked %+v", sh)
	}
}

// killedChild is the process that dies: it books and exits in Recorded.
func killedChild(dsn, courierDir string) {
	ctx := context.Background()
	d, err := db.Open(ctx, db.Config{Driver: db.DriverPostgres, DSN: dsn, MaxOpenConns: 2})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(1)
	}
	req := bookRequest("ord_killed")
	req.Recorded = func(context.Context, shipments.Shipment) error {
		os.Exit(killedExit)
		return nil
	}
	_, err = booker(shipments.NewEntStore(d), fileCourier{dir: courierDir}).Book(ctx, req)
	fmt.Fprintln(os.Stderr, "the child was not killed:", err)
	os.Exit(1)
}
