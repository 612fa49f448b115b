// Command allocbudget runs the hot path's benchmarks with -benchmem and
// fails when a benchmark allocates more per operation than the committed
// budget allows (docs/alloc-budget.txt; docs/performance.md says how to
// raise one).
//
//	go run ./tools/allocbudget [-budget docs/alloc-budget.txt]
//
// Allocation counts do not drift with the machine the way times do, so the
// budget is an exact count, not a margin. Each benchmark runs a fixed
// number of iterations (-benchtime) several times (-count) and the lowest
// count is judged: the first run of a process pays once for pools and
// caches that later runs find warm, which a short run does not amortize.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func main() {
	budgetPath := flag.String("budget", "docs/alloc-budget.txt", "the committed budget")
	benchtime := flag.String("benchtime", "2000x", "go test -benchtime")
	count := flag.Int("count", 3, "runs of each benchmark; the lowest count is judged")
	flag.Parse()
	if err := run(*budgetPath, *benchtime, *count, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "allocbudget:", err)
		os.Exit(1)
	}
}

// benchCPU fixes GOMAXPROCS, so a benchmark's name and its goroutines'
// work are the same on every machine. One P also runs the goroutines of a
// benchmark over gRPC (the client's and server's transports) in the same
// order every time: with two, how often a transport queued a frame or a
// window update varied with the scheduling, and a count with it.
const benchCPU = "1"

func run(budgetPath, benchtime string, count int, out io.Writer) error {
	f, err := os.Open(budgetPath)
	if err != nil {
		return err
	}
	b, err := parseBudget(f)
	_ = f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", budgetPath, err)
	}
	measured := map[key]int64{}
	for _, pkg := range b.packages() {
		args := []string{"test", "-run", "^$", "-bench", "^(" + strings.Join(b.topLevel(pkg), "|") + ")$",
			"-benchmem", "-benchtime", benchtime, "-count", strconv.Itoa(count), "-cpu", benchCPU, pkg}
		cmd := exec.Command("go", args...)
		var stdout bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			_, _ = out.Write(stdout.Bytes())
			return fmt.Errorf("go %s: %w", strings.Join(args, " "), err)
		}
		for name, n := range parseAllocs(&stdout) {
			measured[key{pkg, name}] = n
		}
	}
	return b.check(measured, out)
}

type key struct{ pkg, bench string }

func (k key) String() string { return k.pkg + ":" + k.bench }

// A limit is one budget line: a benchmark's allocations per operation, or
// the difference of two (what one layer adds on top of another).
type limit struct {
	line     int
	of, less key // less is zero for a single benchmark
	max      int64
}

type budget []limit

// parseBudget reads lines of the form
//
//	./pkg:BenchmarkName[/sub]  MAX
//	./pkg:BenchmarkA - ./pkg:BenchmarkB  MAX
//
// with # starting a comment.
func parseBudget(r io.Reader) (budget, error) {
	var b budget
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		l := limit{line: n}
		var err error
		switch {
		case len(fields) == 2:
			l.of, err = parseKey(fields[0])
		case len(fields) == 4 && fields[1] == "-":
			if l.of, err = parseKey(fields[0]); err == nil {
				l.less, err = parseKey(fields[2])
			}
		default:
			err = errors.New("want `./pkg:Benchmark MAX` or `./pkg:BenchmarkA - ./pkg:BenchmarkB MAX`")
		}
		if err == nil {
			l.max, err = strconv.ParseInt(fields[len(fields)-1], 10, 64)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		b = append(b, l)
	}
	if len(b) == 0 && sc.Err() == nil {
		return nil, errors.New("no budget lines")
	}
	return b, sc.Err()
}

func parseKey(s string) (key, error) {
	pkg, bench, ok := strings.Cut(s, ":")
	if !ok || !strings.HasPrefix(pkg, "./") || !strings.HasPrefix(bench, "Benchmark") {
		return key{}, fmt.Errorf("%q: want ./pkg:BenchmarkName", s)
	}
	return key{pkg, bench}, nil
}

func (b budget) keys() []key {
	var ks []key
	for _, l := range b {
		ks = append(ks, l.of)
		if l.less != (key{}) {
			ks = append(ks, l.less)
		}
	}
	return ks
}

func (b budget) packages() []string {
	var pkgs []string
	for _, k := range b.keys() {
		if !slices.Contains(pkgs, k.pkg) {
			pkgs = append(pkgs, k.pkg)
		}
	}
	return pkgs
}

// topLevel names the benchmarks of pkg to run: a sub-benchmark runs with
// its parent's others, which are cheap.
func (b budget) topLevel(pkg string) []string {
	var names []string
	for _, k := range b.keys() {
		top, _, _ := strings.Cut(k.bench, "/")
		if k.pkg == pkg && !slices.Contains(names, top) {
			names = append(names, regexp.QuoteMeta(top))
		}
	}
	return names
}

// resultLine is a result of go test -bench at benchCPU: go test names the
// benchmark with a -N suffix, except at GOMAXPROCS 1.
var resultLine = regexp.MustCompile(`^(Benchmark\S+?)` + cpuSuffix(benchCPU) + `\s+\d+\s.*?(\d+) allocs/op`)

func cpuSuffix(cpu string) string {
	if cpu == "1" {
		return ""
	}
	return "-" + cpu
}

// parseAllocs reads go test -bench output: each benchmark's lowest
// allocations per operation over its runs.
func parseAllocs(r io.Reader) map[string]int64 {
	got := map[string]int64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := resultLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil {
			continue
		}
		if prev, seen := got[m[1]]; !seen || n < prev {
			got[m[1]] = n
		}
	}
	return got
}

func (b budget) check(measured map[key]int64, out io.Writer) error {
	var over []string
	for _, l := range b {
		n, ok := measured[l.of]
		name := l.of.String()
		if ok && l.less != (key{}) {
			var m int64
			m, ok = measured[l.less]
			n -= m
			name += " - " + l.less.String()
		}
		switch {
		case !ok:
			over = append(over, fmt.Sprintf("line %d: %s: no result (renamed or removed? update the budget)", l.line, name))
		case n > l.max:
			over = append(over, fmt.Sprintf("line %d: %s: %d allocs/op, budget %d", l.line, name, n, l.max))
		default:
			fmt.Fprintf(out, "ok   %-80s %5d allocs/op (budget %d)\n", name, n, l.max)
		}
	}
	if len(over) > 0 {
		for _, o := range over {
			fmt.Fprintln(out, "OVER "+o)
		}
		return fmt.Errorf("%d benchmark(s) over the allocation budget; see docs/performance.md, \"Allocation budget\"", len(over))
	}
	return nil
}
