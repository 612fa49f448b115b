package admissiontest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/rueidis"
)

// RedisServer is a redis-server process of the test's own, without
// persistence, that the test can restart: a real empty restart, which a
// shared server cannot give. Without the redis-server binary the test is
// skipped, except under CI=true, where that is a failure.
type RedisServer struct {
	Addr string
	bin  string
	dir  string
	cmd  *exec.Cmd
}

// StartRedisServer starts a redis-server on a free loopback port; it stops
// with the test.
func StartRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is required in CI: %v", err)
		}
		t.Skipf("redis-server not installed: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	s := &RedisServer{Addr: addr, bin: bin, dir: t.TempDir()}
	s.start(t)
	t.Cleanup(s.stop)
	return s
}

// Restart stops the server and starts an empty one on the same address.
func (s *RedisServer) Restart(t testing.TB) {
	t.Helper()
	s.stop()
	s.start(t)
}

func (s *RedisServer) start(t testing.TB) {
	t.Helper()
	_, port, _ := net.SplitHostPort(s.Addr)
	s.cmd = exec.Command(s.bin, "--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no", "--dir", s.dir)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := ping(s.Addr)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on %s did not answer: %v", s.Addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *RedisServer) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

func ping(addr string) error {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, ForceSingleClient: true, DisableCache: true, DisableRetry: true})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := c.Do(ctx, c.B().Ping().Build()).Error(); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	return nil
}
