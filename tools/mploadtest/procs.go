package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/mallplatform/partnerapi/internal/loopback"
)

// child is a server process the compare procedure started.
type child struct {
	name string
	cmd  *exec.Cmd
	log  *os.File
	done chan struct{}
	err  error
}

// startChild starts bin with args, its output going to logPath. The child
// is killed if this process dies first, so an interrupted run leaves no
// servers behind.
func startChild(name, bin string, args, env []string, logPath string) (*child, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	c := &child{name: name, cmd: cmd, log: log, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

func (c *child) pid() int { return c.cmd.Process.Pid }

func (c *child) exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// stop asks the child to drain (SIGTERM, which both tiers and the baseline
// handle) and kills it if it has not exited within grace.
func (c *child) stop(grace time.Duration) error {
	defer c.log.Close()
	if c.exited() {
		return c.err
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
		return c.err
	case <-time.After(grace):
		_ = c.cmd.Process.Kill()
		<-c.done
		return fmt.Errorf("%s did not stop within %s and was killed", c.name, grace)
	}
}

// tail returns the end of the child's log, for error messages.
func (c *child) tail(n int) string {
	b, err := os.ReadFile(c.log.Name())
	if err != nil {
		return ""
	}
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// runOnce runs bin to completion and returns its standard output.
func runOnce(ctx context.Context, bin string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%s %s: %w\n%s", bin, strings.Join(args, " "), err, errb.String())
	}
	return out.Bytes(), nil
}

// freeAddr returns a loopback address for a child to listen on.
func freeAddr() (string, error) { return loopback.FreeAddr() }

// waitReady polls url until it answers 200, the child exits, or the
// timeout passes.
func waitReady(ctx context.Context, c *child, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if c.exited() {
			return fmt.Errorf("%s exited before it was ready: %v\n%s", c.name, c.err, c.tail(2000))
		}
		select {
		case <-ctx.Done():
			return errors.Join(fmt.Errorf("%s not ready at %s", c.name, url), ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
