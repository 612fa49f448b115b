package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The CPU accounting reads /proc: on a 2-core machine the first question
// about any figure is which process had the cores. Per-process CPU time
// before and after a run says how the load generator, gateway, core,
// PostgreSQL and Redis shared them; per-process context switches say how
// often each was put to sleep or off a core, which on a virtual machine
// costs more than most of what a request computes (docs/performance.md);
// per-process read and write system calls (/proc/PID/io) say how many
// crossings into the kernel each makes: most of a Go server's or Redis's
// system calls a request. PostgreSQL's are not among them: it talks on its
// sockets with send and recv, which that counter does not count.

// userHZ is the unit of the CPU times in /proc (USER_HZ, 100 on Linux).
const userHZ = 100

type procTicks struct {
	comm  string
	ticks uint64
	// switches is the context switches, voluntary and not, of every
	// thread of the process.
	switches uint64
	// ioCalls is the process's read and write system calls (syscr and
	// syscw of /proc/PID/io, every thread's): read, write and their
	// positioned and vectored forms, not send or recv.
	ioCalls uint64
}

// cpuSnapshot is the CPU time of every process and of the machine.
type cpuSnapshot struct {
	at    time.Time
	procs map[int]procTicks
	// busy and total are the machine's CPU ticks across all cores.
	busy, total uint64
}

func takeCPUSnapshot() (cpuSnapshot, error) {
	s := cpuSnapshot{at: time.Now(), procs: map[int]procTicks{}}
	stat, err := os.ReadFile("/proc/stat")
	if err != nil {
		return s, err
	}
	if s.busy, s.total, err = parseSystemStat(stat); err != nil {
		return s, err
	}
	dirs, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		return s, err
	}
	for _, path := range dirs {
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if err != nil {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the process ended in between
		}
		comm, ticks, err := parseProcStat(b)
		if err != nil {
			continue
		}
		s.procs[pid] = procTicks{comm: comm, ticks: ticks, switches: processSwitches(pid), ioCalls: processIOCalls(pid)}
	}
	return s, nil
}

// processSwitches sums voluntary_ctxt_switches and
// nonvoluntary_ctxt_switches over the process's threads (the process's own
// status file counts its first thread only); 0 when it cannot be read.
func processSwitches(pid int) uint64 {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/[0-9]*/status")
	var n uint64
	for _, path := range tasks {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the thread ended in between
		}
		n += parseStatusSwitches(b)
	}
	return n
}

// processIOCalls reads a process's read and write system calls; 0 when its
// io file cannot be read (another user's process, or one that ended).
func processIOCalls(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/io")
	if err != nil {
		return 0
	}
	return parseIOCalls(b)
}

// parseIOCalls sums syscr and syscw of an io file.
func parseIOCalls(b []byte) uint64 {
	return sumFields(b, "syscr", "syscw")
}

// parseStatusSwitches reads both context-switch counts of a status file.
func parseStatusSwitches(b []byte) uint64 {
	return sumFields(b, "voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")
}

// sumFields adds the values of the named "name: value" lines of a /proc
// file.
func sumFields(b []byte, a, c string) uint64 {
	var n uint64
	for line := range bytes.SplitSeq(b, []byte{'\n'}) {
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok || (string(name) != a && string(name) != c) {
			continue
		}
		v, err := strconv.ParseUint(string(bytes.TrimSpace(value)), 10, 64)
		if err == nil {
			n += v
		}
	}
	return n
}

// parseProcStat reads the command name and utime+stime of /proc/PID/stat.
// The name is in parentheses and may itself contain spaces or parentheses,
// so the fields are counted from the last ')'.
func parseProcStat(b []byte) (string, uint64, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return "", 0, errors.New("malformed stat")
	}
	comm := string(b[open+1 : end])
	// After ')': state(3) ppid(4) ... utime(14) stime(15).
	fields := strings.Fields(string(b[end+1:]))
	if len(fields) < 13 {
		return "", 0, errors.New("short stat")
	}
	utime, err1 := strconv.ParseUint(fields[11], 10, 64)
	stime, err2 := strconv.ParseUint(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return "", 0, errors.New("malformed times")
	}
	return comm, utime + stime, nil
}

// parseSystemStat reads the aggregate "cpu" line of /proc/stat: busy ticks
// (everything but idle and iowait) and all ticks.
func parseSystemStat(b []byte) (busy, total uint64, err error) {
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	fields := strings.Fields(string(line))
	if len(fields) < 5 || fields[0] != "cpu" {
		return 0, 0, errors.New("/proc/stat has no cpu line")
	}
	// user nice system idle iowait irq softirq steal (guest time is
	// already inside user and nice).
	for i, f := range fields[1:min(len(fields), 9)] {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat: %w", err)
		}
		total += v
		if i != 3 && i != 4 {
			busy += v
		}
	}
	return busy, total, nil
}

// cpuShare is one group's CPU time over an interval.
type cpuShare struct {
	Group   string  `json:"group"`
	Seconds float64 `json:"cpu_seconds"`
	// Switches is the group's context switches over the interval.
	Switches uint64 `json:"context_switches,omitempty"`
	// IOCalls is the group's read and write system calls over the interval.
	IOCalls uint64 `json:"read_write_calls,omitempty"`
}

// cpuReport is how the machine's CPU was spent between two snapshots.
type cpuReport struct {
	Wall float64 `json:"wall_seconds"`
	// Busy is the share of all cores' time that was busy, 0-1.
	Busy   float64    `json:"busy"`
	Groups []cpuShare `json:"groups"`
	// Other names the busiest processes of the "other" group, by command
	// name, to tell interference (other work on the machine) from the
	// kernel's own threads.
	Other []cpuShare `json:"other,omitempty"`
}

// cpuBetween attributes CPU time between a and b. named maps the pids this
// tool started (and its own) to a group; PostgreSQL's and Redis's processes
// are recognised by name; everything else is "other" (other work on a
// shared machine shows up there). A process that ended before b is missing.
func cpuBetween(a, b cpuSnapshot, named map[int]string) cpuReport {
	groups, other, switches, ioCalls := map[string]uint64{}, map[string]uint64{}, map[string]uint64{}, map[string]uint64{}
	for pid, p := range b.procs {
		d, sw, io := p.ticks, p.switches, p.ioCalls
		if old, ok := a.procs[pid]; ok && old.comm == p.comm && old.ticks <= p.ticks {
			d = p.ticks - old.ticks
			sw, io = counted(old.switches, p.switches), counted(old.ioCalls, p.ioCalls)
		}
		if d == 0 {
			continue
		}
		g := groupOf(pid, p.comm, named)
		groups[g] += d
		switches[g] += sw
		ioCalls[g] += io
		if g == "other" {
			other[p.comm] += d
		}
	}
	r := cpuReport{Wall: b.at.Sub(a.at).Seconds()}
	if dt := b.total - a.total; dt > 0 {
		r.Busy = float64(b.busy-a.busy) / float64(dt)
	}
	r.Groups = shares(groups)
	for i := range r.Groups {
		r.Groups[i].Switches = switches[r.Groups[i].Group]
		r.Groups[i].IOCalls = ioCalls[r.Groups[i].Group]
	}
	r.Other = shares(other)
	if len(r.Other) > 3 {
		r.Other = r.Other[:3]
	}
	return r
}

// counted is a counter's growth between two readings of one process, 0
// when the second is lower (a reading that failed).
func counted(before, after uint64) uint64 {
	if before > after {
		return 0
	}
	return after - before
}

func shares(ticks map[string]uint64) []cpuShare {
	out := make([]cpuShare, 0, len(ticks))
	for g, t := range ticks {
		out = append(out, cpuShare{Group: g, Seconds: float64(t) / userHZ})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Seconds != out[j].Seconds {
			return out[i].Seconds > out[j].Seconds
		}
		return out[i].Group < out[j].Group
	})
	return out
}

func groupOf(pid int, comm string, named map[int]string) string {
	if g, ok := named[pid]; ok {
		return g
	}
	switch {
	case comm == "postgres" || strings.HasPrefix(comm, "postgres:"):
		return "postgresql"
	case comm == "redis-server":
		return "redis"
	}
	return "other"
}

// seconds returns the CPU time of group (0 when absent).
func (r cpuReport) seconds(group string) float64 {
	for _, g := range r.Groups {
		if g.Group == group {
			return g.Seconds
		}
	}
	return 0
}

// switchesPerRequest is the context switches of every process but "other"
// (the machine's own threads and unrelated work) per successful request.
func (r cpuReport) switchesPerRequest(requests int) float64 {
	return r.perRequest(requests, func(g cpuShare) uint64 { return g.Switches })
}

// serverIOCallsPerRequest is the read and write system calls of the
// servers under test (gateway and core, or the bare server) per successful
// request.
func (r cpuReport) serverIOCallsPerRequest(requests int) float64 {
	return r.perRequest(requests, func(g cpuShare) uint64 {
		if g.Group == "gateway" || g.Group == "core" || g.Group == "baseline" {
			return g.IOCalls
		}
		return 0
	})
}

func (r cpuReport) perRequest(requests int, count func(cpuShare) uint64) float64 {
	if requests == 0 {
		return 0
	}
	var n uint64
	for _, g := range r.Groups {
		if g.Group != "other" {
			n += count(g)
		}
	}
	return float64(n) / float64(requests)
}

// write prints the report with CPU milliseconds per successful request.
func (r cpuReport) write(w io.Writer, requests int) {
	fmt.Fprintf(w, "  cpu         machine %.0f%% busy over %.1fs (%d cores)\n", 100*r.Busy, r.Wall, numCPU())
	for _, g := range r.Groups {
		if g.Seconds < 0.05 {
			continue
		}
		per := ""
		if requests > 0 {
			per = fmt.Sprintf(", %.3f ms/request", 1000*g.Seconds/float64(requests))
			if g.Switches > 0 && g.Group != "other" {
				per += fmt.Sprintf(", %.1f switches/request", float64(g.Switches)/float64(requests))
			}
			if io := float64(g.IOCalls) / float64(requests); io >= 0.05 && g.Group != "other" {
				per += fmt.Sprintf(", %.1f reads+writes/request", io)
			}
		}
		fmt.Fprintf(w, "              %-16s %6.2f cpu-s (%4.0f%% of one core%s)\n", g.Group, g.Seconds, 100*g.Seconds/r.Wall, per)
	}
	if len(r.Other) > 0 {
		parts := make([]string, len(r.Other))
		for i, o := range r.Other {
			parts[i] = fmt.Sprintf("%s %.2f", o.Group, o.Seconds)
		}
		fmt.Fprintf(w, "              other, busiest: %s cpu-s\n", strings.Join(parts, ", "))
	}
}
