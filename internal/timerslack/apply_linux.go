package timerslack

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// execMark is set, to the slack in nanoseconds, in the environment of the
// program executed again by Apply; the new process removes it. It stops a
// second execution should a kernel not keep the slack across execve.
const execMark = "MP_TIMER_SLACK_EXEC"

// Apply makes slack the timer slack of every thread of the process, and
// returns nil when it already is. The Go runtime starts its first threads,
// the monitor among them, before any of the program's code runs, and a thread
// may set only its own slack without CAP_SYS_NICE; but a new thread inherits
// its creator's slack and execve keeps it. So Apply sets the calling thread's
// slack and executes the program again, with the same arguments and
// environment, in the same process: on success it does not return. Call it
// first in main, before the program starts anything that an execve would
// end. Zero does nothing.
func Apply(slack time.Duration) error {
	mark, marked := os.LookupEnv(execMark)
	if marked {
		_ = os.Unsetenv(execMark)
	}
	if slack <= 0 {
		return nil
	}
	// The slack is read, set and carried into execve by one thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	current, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		return fmt.Errorf("timer slack: reading it: %w", err)
	}
	if time.Duration(current) == slack {
		return nil
	}
	if marked {
		return fmt.Errorf("timer slack: %s was set before executing the program again (%s ns) but the new process has %d ns; running with it",
			slack, mark, current)
	}
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(slack.Nanoseconds()), 0, 0, 0); err != nil {
		return fmt.Errorf("timer slack: setting it: %w", err)
	}
	env := append(os.Environ(), execMark+"="+strconv.FormatInt(slack.Nanoseconds(), 10))
	// /proc/self/exe rather than os.Executable: it names the running program
	// even when its file has been replaced or removed since it started.
	err = syscall.Exec("/proc/self/exe", os.Args, env)
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(current), 0, 0, 0)
	return fmt.Errorf("timer slack: executing the program again: %w", err)
}
