package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseProcStat(t *testing.T) {
	// A command name with a space and a parenthesis, as a process may pick.
	line := "4242 (post gres) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 1 0 100 1000 10\n"
	comm, ticks, err := parseProcStat([]byte(line))
	if err != nil || comm != "post gres) x" || ticks != 175 {
		t.Fatalf("%q %d %v", comm, ticks, err)
	}
	if _, _, err := parseProcStat([]byte("4242 (short) S 1 2")); err == nil {
		t.Fatal("short line accepted")
	}
}

func TestParseSystemStat(t *testing.T) {
	busy, total, err := parseSystemStat([]byte("cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3 4\n"))
	if err != nil || busy != 160 || total != 1000 {
		t.Fatalf("busy %d total %d %v", busy, total, err)
	}
	if _, _, err := parseSystemStat([]byte("intr 1 2 3")); err == nil {
		t.Fatal("no cpu line accepted")
	}
}

func TestCPUBetweenGroupsProcesses(t *testing.T) {
	t0 := time.Unix(0, 0)
	a := cpuSnapshot{at: t0, busy: 0, total: 0, procs: map[int]procTicks{
		1: {"mpserver", 100, 1000, 4000}, 2: {"mpserver", 50, 10, 0}, 3: {"postgres", 10, 0, 0}, 4: {"redis-server", 5, 0, 0}, 5: {"go", 7, 0, 0}, 9: {"old", 3, 0, 0},
	}}
	b := cpuSnapshot{at: t0.Add(2 * time.Second), busy: 300, total: 400, procs: map[int]procTicks{
		1: {"mpserver", 200, 3500, 12700}, 2: {"mpserver", 80, 20, 0}, 3: {"postgres", 30, 0, 0}, 4: {"redis-server", 6, 0, 0}, 5: {"go", 7, 0, 0},
		6: {"postgres", 40, 0, 0}, // a backend that connected during the run
		7: {"make", 11, 0, 0},
	}}
	r := cpuBetween(a, b, map[int]string{1: "gateway", 2: "core"})
	want := map[string]float64{"gateway": 1, "core": 0.3, "postgresql": 0.6, "redis": 0.01, "other": 0.11}
	if len(r.Groups) != len(want) {
		t.Fatalf("groups %+v", r.Groups)
	}
	for g, s := range want {
		if got := r.seconds(g); got < s-1e-9 || got > s+1e-9 {
			t.Errorf("%s: %v, want %v", g, got, s)
		}
	}
	if r.Groups[0].Group != "gateway" || r.Wall != 2 || r.Busy != 0.75 {
		t.Fatalf("%+v", r)
	}
	var out bytes.Buffer
	r.write(&out, 1000)
	if g := r.Groups[0]; g.Switches != 2500 {
		t.Errorf("gateway switches %d, want 2500", g.Switches)
	}
	if g := r.Groups[0]; g.IOCalls != 8700 {
		t.Errorf("gateway reads and writes %d, want 8700", g.IOCalls)
	}
	if n := r.serverIOCallsPerRequest(1000); n != 8.7 {
		t.Errorf("servers' reads and writes a request %v, want 8.7", n)
	}
	if !strings.Contains(out.String(), "gateway") || !strings.Contains(out.String(), "1.000 ms/request, 2.5 switches/request, 8.7 reads+writes/request") {
		t.Fatalf("report:\n%s", out.String())
	}
}

func TestParseStatusSwitches(t *testing.T) {
	status := "Name:\tmpserver\nThreads:\t7\nvoluntary_ctxt_switches:\t150\nnonvoluntary_ctxt_switches:\t25\n"
	if n := parseStatusSwitches([]byte(status)); n != 175 {
		t.Fatalf("%d, want 175", n)
	}
}

func TestParseIOCalls(t *testing.T) {
	io := "rchar: 4096\nwchar: 512\nsyscr: 31\nsyscw: 9\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n"
	if n := parseIOCalls([]byte(io)); n != 40 {
		t.Fatalf("%d, want 40", n)
	}
}

func TestTakeCPUSnapshotSeesThisProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	s, err := takeCPUSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	own, ok := s.procs[os.Getpid()]
	if !ok || s.total == 0 {
		t.Fatalf("own pid missing or no totals: %d procs, total %d", len(s.procs), s.total)
	}
	if own.switches == 0 {
		t.Fatal("no context switches counted for this process")
	}
	if own.ioCalls == 0 {
		t.Fatal("no read or write system calls counted for this process (it has read /proc)")
	}
}

func TestParseHistogram(t *testing.T) {
	text := `# HELP mp_gateway_request_duration_seconds Duration.
# TYPE mp_gateway_request_duration_seconds histogram
mp_gateway_request_duration_seconds_bucket{method="GET",route="/open/v1/orders/{id}",status="200",le="0.001"} 3
mp_gateway_request_duration_seconds_sum{method="GET",route="/open/v1/orders/{id}",status="200"} 0.25
mp_gateway_request_duration_seconds_count{method="GET",route="/open/v1/orders/{id}",status="200"} 100
mp_gateway_request_duration_seconds_sum{method="GET",route="/open/v1/orders/{id}",status="429"} 9
mp_gateway_request_duration_seconds_count{method="GET",route="/open/v1/orders/{id}",status="429"} 9
mp_gateway_request_duration_seconds_sum{method="GET",route="/open/v1/orders",status="200"} 1.5 1700000000000
mp_gateway_request_duration_seconds_count{method="GET",route="/open/v1/orders",status="200"} 3 1700000000000
`
	h, err := parseHistogram(strings.NewReader(text), gatewayHistogram, map[string]string{"route": "/open/v1/orders/{id}", "status": "200"})
	if err != nil || h.Sum != 0.25 || h.Count != 100 || h.Mean() != 2500*time.Microsecond {
		t.Fatalf("%+v %v", h, err)
	}
	all, err := parseHistogram(strings.NewReader(text), gatewayHistogram, map[string]string{"status": "200"})
	if err != nil || all.Count != 103 || all.Sum != 1.75 {
		t.Fatalf("%+v %v", all, err)
	}
	if d := all.minus(h); d.Count != 3 || (histTotals{}).Mean() != 0 {
		t.Fatalf("%+v", d)
	}
}
