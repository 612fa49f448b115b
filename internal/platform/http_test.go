package platform

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// closeFlag marks the moment a listener is closed, which is the first thing
// http.Server.Shutdown does: the end of the drain.
type closeFlag struct {
	net.Listener
	closed *atomic.Bool
}

func (l closeFlag) Close() error {
	l.closed.Store(true)
	return l.Listener.Close()
}

// Keep-alive clients sending while the server is told to stop: until the
// server actually shuts down, every request is answered (none meets a
// connection closed under it), the answers given meanwhile close their
// connections, and readiness fails from the moment of the signal.
func TestDrainBeforeShutdown(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var shut atomic.Bool
	var d Drain
	srv := NewHTTPServer(d.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte("ok"))
	})))
	ready := d.Ready(func(context.Context) error { return nil })
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- ServeDraining(ctx, srv, closeFlag{lis, &shut}, &d, 400*time.Millisecond, 5*time.Second)
	}()

	// POST is not retried by the client on a broken connection: a reset
	// shows up as an error instead of being papered over.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	url := "http://" + lis.Addr().String() + "/"
	var answered, closing, stopped atomic.Int64
	var signalled atomic.Bool
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for !shut.Load() {
				resp, err := client.Post(url, "text/plain", strings.NewReader("x"))
				if err != nil {
					if !shut.Load() {
						t.Errorf("request failed before the server shut down: %v", err)
					}
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				answered.Add(1)
				if signalled.Load() {
					if resp.Close {
						closing.Add(1)
					} else {
						stopped.Add(1)
					}
				}
			}
		})
	}
	for answered.Load() < 500 {
		time.Sleep(5 * time.Millisecond)
	}
	if err := ready(ctx); err != nil {
		t.Fatalf("not ready before the signal: %v", err)
	}
	stop()
	for !d.Draining() {
		time.Sleep(time.Millisecond)
	}
	// From here each client has at most one answer whose handling began
	// before the drain.
	signalled.Store(true)
	if ready(context.Background()) == nil {
		t.Fatal("ready while draining")
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	t.Logf("answered %d; after the signal %d with Connection: close, %d without (in flight at the signal)", answered.Load(), closing.Load(), stopped.Load())
	if closing.Load() == 0 {
		t.Fatal("no answer between the signal and the shutdown: the server stopped without draining")
	}
	if stopped.Load() > 32 {
		t.Fatalf("%d answers after the signal kept their connection open", stopped.Load())
	}
}

// "OPTIONS *" reaches the handler (on the partner port: the gateway and its
// envelope) instead of net/http's built-in empty answer.
func TestOptionsStarReachesHandler(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	go func() { _ = srv.Serve(lis) }()
	defer srv.Close()
	c, err := net.Dial("tcp", lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := c.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 418") {
		t.Fatalf("OPTIONS * answered %q", buf[:n])
	}
}
