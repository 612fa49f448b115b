package platform

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// closeFlag marks the moment a listener is closed, which http.Server.Shutdown
// does once it has begun: a server that shuts down before its drain ends
// shows it.
type closeFlag struct {
	net.Listener
	closed *atomic.Bool
}

func (l closeFlag) Close() error {
	l.closed.Store(true)
	return l.Listener.Close()
}

// Keep-alive clients sending while the server is told to stop: until the
// drain ends and the server shuts down, every request is answered (none
// meets a connection closed under it), the answers given meanwhile close
// their connections, and readiness fails from the moment of the signal. The
// test ends the drain itself, once every client has been told to close its
// connection, so what it checks is the order of events, not how much a
// loaded machine gets done in a fixed window.
//
// A request is owed an answer only while the drain lasts. Shutdown marks the
// server as shutting down before it closes the listener, and from then on
// net/http closes, without an answer, each connection whose request it reads;
// these clients, unlike a load balancer's, keep opening connections to the
// last moment. So the test marks the drain's end itself, as it ends it, and
// a request that fails after that is the shutdown's, not the drain's.
func TestDrainBeforeShutdown(t *testing.T) {
	const clients = 32
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// shut: the listener is closed; ended: the drain is over and Shutdown
	// may refuse a request.
	var shut, ended atomic.Bool
	var d Drain
	began, end := make(chan struct{}), make(chan time.Time)
	d.after = func(delay time.Duration) <-chan time.Time {
		if !d.Draining() {
			t.Error("the drain's wait started before the drain began")
		}
		close(began)
		return end
	}
	srv := NewHTTPServer(d.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte("ok"))
	})))
	// The only connections the server may close while the clients send are
	// those its drain answers close. Its own timeouts would close others:
	// a spare connection the transport dialled and kept idle gets no
	// request within ReadHeaderTimeout on a loaded machine, and a POST
	// sent on it as the server closes it fails, which is not the drain's
	// doing.
	srv.ReadHeaderTimeout, srv.IdleTimeout = time.Hour, time.Hour
	ready := d.Ready(func(context.Context) error { return nil })
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- ServeDraining(ctx, srv, closeFlag{lis, &shut}, &d, time.Hour, 5*time.Second)
	}()

	// POST is not retried by the client on a broken connection: a reset
	// shows up as an error instead of being papered over.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * clients}}
	url := "http://" + lis.Addr().String() + "/"
	var answered, closing, stopped atomic.Int64
	// warm: every client has an answer (and a keep-alive connection);
	// told: every client has had an answer closing its connection.
	var warm, told sync.WaitGroup
	warm.Add(clients)
	told.Add(clients)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			// A client that fails early must not leave the test waiting.
			warmed, toldOnce := sync.OnceFunc(warm.Done), sync.OnceFunc(told.Done)
			defer warmed()
			defer toldOnce()
			for !ended.Load() {
				// Which connection a failed request went out on tells a
				// connection the drain closed from one closed otherwise.
				var conn httptrace.GotConnInfo
				trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { conn = i }}
				req, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), http.MethodPost, url, strings.NewReader("x"))
				if err != nil {
					t.Error(err)
					return
				}
				resp, err := client.Do(req)
				if err != nil {
					if !ended.Load() {
						t.Errorf("request failed before the drain ended: %v (draining %v, answered %d; connection reused %v, idle %v for %v)",
							err, d.Draining(), answered.Load(), conn.Reused, conn.WasIdle, conn.IdleTime)
					}
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				answered.Add(1)
				warmed()
				switch {
				case resp.Close:
					closing.Add(1)
					toldOnce()
				case d.Draining():
					stopped.Add(1)
				}
			}
		})
	}
	warm.Wait()
	if err := ready(ctx); err != nil {
		t.Fatalf("not ready before the signal: %v", err)
	}
	stop()
	<-began
	if ready(context.Background()) == nil {
		t.Error("ready while draining")
	}
	told.Wait()
	if shut.Load() {
		t.Error("the server shut down before the drain ended")
	}
	ended.Store(true)
	close(end)
	// The clients stop once the drain has ended. The transport may have
	// dialled a spare connection for a request that was then sent on
	// another one; the server waits for such a connection as a new one
	// (for seconds) unless the client closes it, as a client that stops
	// sending does.
	wg.Wait()
	client.CloseIdleConnections()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	t.Logf("answered %d; while draining %d with Connection: close, %d without (in flight when it began)", answered.Load(), closing.Load(), stopped.Load())
	// Each client has at most one answer whose handling began before the
	// drain and that it read after.
	if stopped.Load() > clients {
		t.Fatalf("%d answers while draining kept their connection open", stopped.Load())
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
