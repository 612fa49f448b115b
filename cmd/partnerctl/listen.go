package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"time"

	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/webhook"
)

const listenUsage = `usage: partnerctl [flags] listen --forward URL [--secret whsec_…] [--type TYPE] [--since TIME] [--interval 2s]

Polls the seller's events feed (GET /open/v1/events) and forwards each new
event to a local server as the platform's webhooks arrive: a POST of the event
JSON with webhook-id, webhook-timestamp and webhook-signature (Standard
Webhooks), signed with --secret (a fresh whsec_ secret, printed, when none is
given). No public URL is needed; stop it with Ctrl-C.

  partnerctl listen --forward http://localhost:3000/webhooks --type order.cancelled
`

// listener is what listen runs: the feed's poller and the forwarder.
type listener struct {
	client   *sdk.Client
	forward  string
	secret   string
	typ      string
	since    time.Time
	interval time.Duration
	http     *http.Client
	out      io.Writer
	// seen holds the ids forwarded from the current created_after window.
	seen map[string]bool
	// polled, when set, is called after each poll that completed: a test
	// counts polls instead of waiting for time to pass.
	polled func()
}

func runListen(o *options, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("partnerctl listen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, listenUsage); fs.PrintDefaults() }
	l := &listener{out: stdout, seen: map[string]bool{}, http: &http.Client{Timeout: 10 * time.Second}}
	var since string
	fs.StringVar(&l.forward, "forward", "", "local `URL` the events are POSTed to")
	fs.StringVar(&l.secret, "secret", "", "whsec_ `secret` to sign the forwarded events with (default: a fresh one, printed)")
	fs.StringVar(&l.typ, "type", "", "forward only events of this `type` (order.cancelled, …)")
	fs.StringVar(&since, "since", "", "forward events created at or after this RFC 3339 `time` too (default: from now)")
	fs.DurationVar(&l.interval, "interval", 2*time.Second, "how often the feed is polled")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	u, err := url.Parse(l.forward)
	if l.forward == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "partnerctl listen: want --forward http(s)://host:port/path")
		return exitUsage
	}
	if l.secret == "" {
		if l.secret, err = webhook.NewSecret(); err != nil {
			fmt.Fprintf(stderr, "partnerctl listen: %v\n", err)
			return exitFail
		}
		fmt.Fprintf(stderr, "partnerctl listen: signing with %s (verify with it in your receiver)\n", l.secret)
	}
	l.since = time.Now().UTC()
	if since != "" {
		if l.since, err = time.Parse(time.RFC3339, since); err != nil {
			fmt.Fprintln(stderr, "partnerctl listen: --since: want an RFC 3339 time")
			return exitUsage
		}
	}
	if l.client, err = o.client(stderr); err != nil {
		fmt.Fprintf(stderr, "partnerctl listen: %v\n", err)
		return exitFail
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(stderr, "partnerctl listen: forwarding to %s, polling every %s\n", l.forward, l.interval)
	if err := l.run(ctx); err != nil {
		fmt.Fprintf(stderr, "partnerctl listen: %v\n", err)
		return exitFail
	}
	return exitOK
}

// run polls until ctx ends; a poll cut short by the end is no error.
func (l *listener) run(ctx context.Context) error {
	for {
		if err := l.poll(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if l.polled != nil {
			l.polled()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(l.interval):
		}
	}
}

// poll reads every event since the window's start and forwards the new ones.
// The window moves up to the newest event forwarded; the ids of its instant
// are remembered, so an event is forwarded once.
func (l *listener) poll(ctx context.Context) error {
	cursor := ""
	for {
		q := url.Values{"limit": {"100"}, "created_after": {l.since.Format(time.RFC3339Nano)}}
		if l.typ != "" {
			q.Set("type", l.typ)
		}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		resp, err := l.client.DoSigned(ctx, sdk.Request{Method: http.MethodGet, Path: "/open/v1/events", RawQuery: q.Encode()})
		if err != nil {
			return err
		}
		if !resp.OK() {
			return fmt.Errorf("events feed: %d %s", resp.Status, resp.Body)
		}
		var page struct {
			Data []json.RawMessage `json:"data"`
			Meta struct {
				NextCursor string `json:"next_cursor"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(resp.Body, &page); err != nil {
			return fmt.Errorf("events feed: %w", err)
		}
		for _, raw := range page.Data {
			if err := l.forwardOne(ctx, raw); err != nil {
				return err
			}
		}
		if cursor = page.Meta.NextCursor; cursor == "" {
			return nil
		}
	}
}

func (l *listener) forwardOne(ctx context.Context, raw json.RawMessage) error {
	var ev struct {
		ID        string    `json:"id"`
		Type      string    `json:"type"`
		CreatedAt time.Time `json:"created_at"`
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		return fmt.Errorf("events feed: %w", err)
	}
	if l.seen[ev.ID] {
		return nil
	}
	if ev.CreatedAt.After(l.since) {
		l.since, l.seen = ev.CreatedAt, map[string]bool{}
	}
	l.seen[ev.ID] = true
	now := time.Now()
	sig, err := webhook.Sign(ev.ID, now, raw, []string{l.secret})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.forward, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(webhook.HeaderID, ev.ID)
	req.Header.Set(webhook.HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(webhook.HeaderSignature, sig)
	resp, err := l.http.Do(req)
	if err != nil {
		fmt.Fprintf(l.out, "%s %s -> %v\n", ev.ID, ev.Type, err)
		return nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	fmt.Fprintf(l.out, "%s %s -> %d\n", ev.ID, ev.Type, resp.StatusCode)
	return nil
}
