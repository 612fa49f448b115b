package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The platform's processes are profiled from outside with Linux perf: the
// kernel's cpu-clock sampling with frame-pointer call graphs (Go keeps frame
// pointers on amd64 and arm64), symbolised from the binary's own symbol
// table. Unlike the Go profiler on the tiers' metrics ports
// (/debug/pprof/profile), it also sees the time spent in the kernel on the
// processes' behalf, and nothing in the processes changes for it.

// perfFrequency is the sampling rate per CPU; low enough that perf's own
// cost does not move the figures much.
const perfFrequency = 499

// startPerf records pids for d into path. The returned wait blocks until
// perf has written its file.
func startPerf(ctx context.Context, path string, pids []int, d time.Duration) (wait func() error, err error) {
	ps := make([]string, len(pids))
	for i, p := range pids {
		ps[i] = strconv.Itoa(p)
	}
	secs := strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
	cmd := exec.CommandContext(ctx, "perf", "record", "-q", "-F", strconv.Itoa(perfFrequency), "-g",
		"-p", strings.Join(ps, ","), "-o", path, "--", "sleep", secs)
	// perf writes a usable file when interrupted, not when killed.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("perf: %w", err)
	}
	return func() error {
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("perf record: %w: %s", err, stderr.String())
		}
		return nil
	}, nil
}

// perfProcess is one profiled process's samples.
type perfProcess struct {
	Name    string `json:"name"`
	Samples int    `json:"samples"`
	// Inclusive is the share of samples with at least one frame in the
	// group (a package or a module, see groupOf); Self the share whose
	// innermost frame is in it.
	Inclusive []perfShare `json:"inclusive"`
	Self      []perfShare `json:"self"`
	// GC is the share of samples in the garbage collector's marking, in
	// its background workers or in allocation assists; Kernel the share whose innermost frame is in the kernel
	// (system calls, loopback networking).
	GC     float64 `json:"gc"`
	Kernel float64 `json:"kernel"`
}

type perfShare struct {
	Group string  `json:"group"`
	Share float64 `json:"share"`
}

// summarizePerf reads "perf script" output for the recorded file.
func summarizePerf(ctx context.Context, path string, names map[int]string) ([]perfProcess, error) {
	cmd := exec.CommandContext(ctx, "perf", "script", "-i", path, "-F", "pid,ip,sym")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("perf script: %w", err)
	}
	procs, perr := parsePerfScript(out, names)
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("perf script: %w", err)
	}
	return procs, perr
}

type perfCounts struct {
	samples, gc, kernel int
	inclusive, self     map[string]int
}

// parsePerfScript reads samples in the "pid,ip,sym" format: a line with the
// pid, then one line per frame (innermost first), then a blank line.
func parsePerfScript(r io.Reader, names map[int]string) ([]perfProcess, error) {
	byPid := map[int]*perfCounts{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var cur *perfCounts
	var frames []string
	flush := func() {
		if cur != nil && len(frames) > 0 {
			cur.add(frames)
		}
		cur, frames = nil, frames[:0]
	}
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			flush()
		case !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, " \t"):
			flush()
			pid, err := strconv.Atoi(strings.Fields(trimmed)[0])
			if err != nil {
				continue
			}
			if byPid[pid] == nil {
				byPid[pid] = &perfCounts{inclusive: map[string]int{}, self: map[string]int{}}
			}
			cur = byPid[pid]
		default:
			addr, sym, _ := strings.Cut(trimmed, " ")
			if strings.HasPrefix(addr, "ffffffff") {
				sym = "[kernel]"
			}
			frames = append(frames, sym)
		}
	}
	flush()
	var procs []perfProcess
	for pid, c := range byPid {
		name := names[pid]
		if name == "" {
			name = strconv.Itoa(pid)
		}
		procs = append(procs, c.summary(name))
	}
	sort.Slice(procs, func(i, j int) bool { return procs[i].Name < procs[j].Name })
	return procs, sc.Err()
}

func (c *perfCounts) add(frames []string) {
	c.samples++
	seen := map[string]bool{}
	gc := false
	for _, f := range frames {
		g := perfGroup(f)
		if !seen[g] {
			seen[g] = true
			c.inclusive[g]++
		}
		if strings.HasPrefix(f, "runtime.gcBgMarkWorker") || strings.HasPrefix(f, "runtime.gcAssistAlloc") {
			gc = true
		}
	}
	if gc {
		c.gc++
	}
	if frames[0] == "[kernel]" {
		c.kernel++
	}
	c.self[perfGroup(frames[0])]++
}

func (c *perfCounts) summary(name string) perfProcess {
	p := perfProcess{Name: name, Samples: c.samples}
	if c.samples == 0 {
		return p
	}
	n := float64(c.samples)
	p.GC, p.Kernel = float64(c.gc)/n, float64(c.kernel)/n
	// Every goroutine stack ends in the runtime, so its inclusive share
	// says nothing; its self share (allocation, scheduling) does.
	inc := map[string]int{}
	for g, v := range c.inclusive {
		if g != "runtime" && g != "[kernel]" && g != "[unknown]" {
			inc[g] = v
		}
	}
	p.Inclusive = topShares(inc, n, 20)
	p.Self = topShares(c.self, n, 12)
	return p
}

func topShares(m map[string]int, n float64, limit int) []perfShare {
	out := make([]perfShare, 0, len(m))
	for g, v := range m {
		out = append(out, perfShare{Group: g, Share: float64(v) / n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Share != out[j].Share {
			return out[i].Share > out[j].Share
		}
		return out[i].Group < out[j].Group
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// perfGroup maps a frame's symbol to what the report counts it under: the
// platform's own packages by package, other modules by module, the standard
// library by its first two path elements.
func perfGroup(sym string) string {
	if sym == "[kernel]" || sym == "[unknown]" || sym == "" {
		if sym == "" {
			return "[unknown]"
		}
		return sym
	}
	pkg := symbolPackage(sym)
	const own = "github.com/mallplatform/partnerapi/"
	if rest, ok := strings.CutPrefix(pkg, own); ok {
		return "partnerapi/" + rest
	}
	parts := strings.Split(pkg, "/")
	keep := 2
	switch parts[0] {
	case "github.com", "golang.org", "buf.build":
		keep = 3 // host/owner/repository
	}
	if len(parts) > keep {
		parts = parts[:keep]
	}
	return strings.Join(parts, "/")
}

// symbolPackage is the package path of a Go symbol such as
// "github.com/jackc/pgx/v5/pgtype.(*TimestamptzCodec).PlanScan" or
// "slices.SortFunc[go.shape.string]".
func symbolPackage(sym string) string {
	if i := strings.IndexByte(sym, '['); i >= 0 {
		sym = sym[:i]
	}
	slash := strings.LastIndexByte(sym, '/')
	if dot := strings.IndexByte(sym[slash+1:], '.'); dot >= 0 {
		return sym[:slash+1+dot]
	}
	return sym
}

func writePerf(w io.Writer, procs []perfProcess) {
	for _, p := range procs {
		fmt.Fprintf(w, "  profile     %s: %d samples; GC marking %.0f%%, kernel (innermost frame) %.0f%%\n", p.Name, p.Samples, 100*p.GC, 100*p.Kernel)
		fmt.Fprintf(w, "              inclusive: %s\n", joinShares(p.Inclusive, 12))
		fmt.Fprintf(w, "              self:      %s\n", joinShares(p.Self, 8))
	}
}

func joinShares(s []perfShare, limit int) string {
	parts := make([]string, 0, limit)
	for i, x := range s {
		if i == limit {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", x.Group, 100*x.Share))
	}
	return strings.Join(parts, ", ")
}

// perfAvailable reports whether perf can run here.
func perfAvailable() error {
	if _, err := exec.LookPath("perf"); err != nil {
		return fmt.Errorf("perf is not installed: %w", err)
	}
	if b, err := os.ReadFile("/proc/sys/kernel/perf_event_paranoid"); err == nil {
		if v, _ := strconv.Atoi(strings.TrimSpace(string(b))); v > 2 && os.Geteuid() != 0 {
			return fmt.Errorf("kernel.perf_event_paranoid is %d; perf needs <= 2 or root", v)
		}
	}
	return nil
}
