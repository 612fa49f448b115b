package main

import (
	"io"
	"strings"
	"testing"
)

const benchOutput = `goos: linux
BenchmarkGatewayOverheadGetOrder   	     200	    219975 ns/op	   37813 B/op	     380 allocs/op
BenchmarkGatewayOverheadGetOrder   	     200	    219975 ns/op	   37813 B/op	     374 allocs/op
BenchmarkGRPCHopGetOrder           	     200	     81919 ns/op	   24108 B/op	     204 allocs/op
BenchmarkVerify/GET-3pairs         	     200	       900 ns/op	       0 B/op	       0 allocs/op
PASS
`

func TestParseAllocsTakesTheLowestRun(t *testing.T) {
	got := parseAllocs(strings.NewReader(benchOutput))
	want := map[string]int64{"BenchmarkGatewayOverheadGetOrder": 374, "BenchmarkGRPCHopGetOrder": 204, "BenchmarkVerify/GET-3pairs": 0}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d, want %d", k, got[k], v)
		}
	}
}

func TestCheck(t *testing.T) {
	b, err := parseBudget(strings.NewReader(`# comment
./gateway:BenchmarkGatewayOverheadGetOrder 374
./gateway:BenchmarkGatewayOverheadGetOrder - ./gateway:BenchmarkGRPCHopGetOrder 170  # own work
./sdk/signing:BenchmarkVerify/GET-3pairs 0
`))
	if err != nil {
		t.Fatal(err)
	}
	measured := map[key]int64{
		{"./gateway", "BenchmarkGatewayOverheadGetOrder"}: 374,
		{"./gateway", "BenchmarkGRPCHopGetOrder"}:         204,
		{"./sdk/signing", "BenchmarkVerify/GET-3pairs"}:   0,
	}
	if err := b.check(measured, io.Discard); err != nil {
		t.Errorf("at the budget: %v", err)
	}
	// One allocation more, on the overhead: both its line and the
	// difference are over.
	measured[key{"./gateway", "BenchmarkGatewayOverheadGetOrder"}] = 375
	var out strings.Builder
	if err := b.check(measured, &out); err == nil || strings.Count(out.String(), "OVER") != 2 {
		t.Errorf("one allocation over: %v\n%s", err, out.String())
	}
	// A budgeted benchmark that no longer reports fails too.
	delete(measured, key{"./sdk/signing", "BenchmarkVerify/GET-3pairs"})
	measured[key{"./gateway", "BenchmarkGatewayOverheadGetOrder"}] = 374
	if err := b.check(measured, io.Discard); err == nil {
		t.Error("a missing benchmark passed")
	}
	if got := b.topLevel("./sdk/signing"); len(got) != 1 || got[0] != "BenchmarkVerify" {
		t.Errorf("top-level benchmarks of sdk/signing: %q", got)
	}
}

func TestParseBudgetRefusesMalformedLines(t *testing.T) {
	for _, line := range []string{"gateway:BenchmarkX 3", "./gateway:BenchmarkX", "./gateway:BenchmarkX - 3", "./gateway:X 3", "./gateway:BenchmarkX three"} {
		if _, err := parseBudget(strings.NewReader(line)); err == nil {
			t.Errorf("%q accepted", line)
		}
	}
}
