package timerslack

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// childEnv makes the test binary act as a server process started with
// MP_TIMER_SLACK: TestMain applies the setting and reports what every thread
// ended up with, in place of running the tests.
const childEnv = "TIMERSLACK_TEST_CHILD"

// report is what the child prints.
type report struct {
	Pid int `json:"pid"`
	// Locked are the slacks read by goroutines each locked to a thread
	// started after Apply (prctl reads the calling thread's own).
	Locked []int `json:"locked"`
	// Threads maps every thread id to its slack from /proc, which needs
	// CAP_SYS_NICE for any thread but the reader; nil without it.
	Threads map[string]int `json:"threads"`
	Mark    bool           `json:"mark"`
}

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "" {
		os.Exit(m.Run())
	}
	slack, err := Parse(os.Getenv(EnvVar))
	if err == nil {
		err = Apply(slack)
	}
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(2)
	}
	r := report{Pid: os.Getpid(), Threads: map[string]int{}}
	_, r.Mark = os.LookupEnv(execMark)
	var mu sync.Mutex
	var wg sync.WaitGroup
	block := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			runtime.LockOSThread() // kept to the end: each goroutine holds a thread of its own
			v, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
			if err != nil {
				v = -1
			}
			mu.Lock()
			r.Locked = append(r.Locked, v)
			mu.Unlock()
			wg.Done()
			<-block
		}()
	}
	wg.Wait()
	// The file is under /proc/TID, not /proc/self/task/TID.
	tasks, _ := filepath.Glob("/proc/self/task/*")
	for _, task := range tasks {
		tid := filepath.Base(task)
		b, err := os.ReadFile("/proc/" + tid + "/timerslack_ns")
		if errors.Is(err, fs.ErrPermission) {
			r.Threads = nil
			break
		}
		if err != nil {
			continue // the thread ended
		}
		v, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		r.Threads[tid] = v
	}
	_ = json.NewEncoder(os.Stdout).Encode(r)
	os.Exit(0)
}

func runChild(t *testing.T, setting string) (report, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", EnvVar+"="+setting)
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("child: %v: %s", err, exit.Stderr)
		}
		t.Fatalf("child: %v", err)
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("child's report %q: %v", out, err)
	}
	return r, cmd
}

func TestApplyGivesEveryThreadTheSlack(t *testing.T) {
	const want = 2 * time.Millisecond
	r, cmd := runChild(t, want.String())
	if r.Pid != cmd.Process.Pid {
		t.Errorf("the program ran again as pid %d, not in the started process %d", r.Pid, cmd.Process.Pid)
	}
	if r.Mark {
		t.Errorf("%s is still in the environment of the program run again", execMark)
	}
	if len(r.Locked) != 8 {
		t.Fatalf("slack read on %d threads, want 8", len(r.Locked))
	}
	for _, v := range r.Locked {
		if time.Duration(v) != want {
			t.Errorf("a thread started after Apply has slack %d ns, want %d", v, want.Nanoseconds())
		}
	}
	if r.Threads == nil {
		t.Log("reading other threads' slack needs CAP_SYS_NICE; checked the threads started after Apply only")
		return
	}
	if len(r.Threads) < len(r.Locked) {
		t.Fatalf("/proc listed %d threads, fewer than the %d locked ones", len(r.Threads), len(r.Locked))
	}
	// Every thread, including those the runtime started before any of the
	// program's code ran (the monitor among them).
	for tid, v := range r.Threads {
		if time.Duration(v) != want {
			t.Errorf("thread %s has slack %d ns, want %d", tid, v, want.Nanoseconds())
		}
	}
}

func TestApplyZeroKeepsTheInheritedSlack(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// The child is started from this thread and inherits its slack.
	inherited, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, cmd := runChild(t, "0")
	if r.Pid != cmd.Process.Pid {
		t.Errorf("pid %d, started as %d", r.Pid, cmd.Process.Pid)
	}
	for _, v := range r.Locked {
		if v != inherited {
			t.Errorf("a thread has slack %d ns, want the inherited %d", v, inherited)
		}
	}
}
