package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/sdk"
)

// Exit statuses: 0 for a 2xx answer, 1 for any other answer or failure, 2
// for a command line that cannot be understood.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

const defaultCredentials = "data/sandbox-credentials.json"

const usageText = `usage: partnerctl [flags] METHOD PATH [BODY|@file|-]
       partnerctl [flags] sign METHOD PATH [BODY|@file|-]
       partnerctl [flags] listen --forward URL (partnerctl listen -h)
       partnerctl [flags] authorize [--login] [--save] (partnerctl authorize -h)
       partnerctl [flags] rotate-secret
       partnerctl [flags] label ORDER [--format pdf|zpl] [--size A6|4x6] > label.pdf

Signs and sends one Open API request and prints the status line and the
pretty-printed JSON body. Exit status 0 for a 2xx answer, 1 otherwise.
With sign, it sends nothing and prints the request's headers instead, one
"Name: value" a line, for any HTTP tool (curl -H @file reads such a file).
rotate-secret rotates the --app's client secret and writes the new one into
the credential file in place of the old (which keeps verifying for a while,
24 h by default); the secret is not printed. label writes an order's shipping
label to standard output as the document itself (PDF or ZPL).

  partnerctl GET '/open/v1/orders?status=SHIPPED'
  partnerctl -H 'Idempotency-Key: k1' POST /open/v1/orders/bulk-cancel @cancel.json
  partnerctl --print-curl GET /open/v1/categories
  partnerctl --verbose GET /open/v1/usage
  partnerctl sign POST /open/v1/products @examples/product-create.json > headers.txt
  partnerctl --content-type image/jpeg POST /open/v1/admin/uploads @photo.jpg

BODY is sent verbatim; @file reads it from a file and - from standard input.
It is JSON unless --content-type says otherwise (an image upload's bytes).
--verbose prints to standard error the string-to-sign, the request headers
(the seller access token masked) and the answer's request id.

Credentials come from --credentials FILE (default ` + defaultCredentials + `),
or, when --credentials is not given and PARTNER_CLIENT_ID or
PARTNER_CLIENT_SECRET is set, from the environment: PARTNER_BASE_URL,
PARTNER_CLIENT_ID, PARTNER_CLIENT_SECRET, and optionally PARTNER_SELLER_ID with
PARTNER_ACCESS_TOKEN.

Flags:
`

// headerFlags collects repeated -H "Name: value" flags.
type headerFlags []string

func (h *headerFlags) String() string     { return strings.Join(*h, ", ") }
func (h *headerFlags) Set(v string) error { *h = append(*h, v); return nil }

type options struct {
	credentials string
	app         string
	seller      int
	noSeller    bool
	baseURL     string
	include     bool
	printCurl   bool
	verbose     bool
	field       string
	timeout     time.Duration
	headers     headerFlags
	contentType string
	gzip        bool
	set         map[string]bool // flags given on the command line
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("partnerctl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.credentials, "credentials", defaultCredentials, "sandbox credential `file`")
	fs.StringVar(&o.app, "app", sdk.AppFull, "app in the credential file: full, limited or live")
	fs.IntVar(&o.seller, "seller", 0, "seller `index` in the credential file")
	fs.BoolVar(&o.noSeller, "no-seller", false, "send no seller headers")
	fs.StringVar(&o.baseURL, "base-url", "", "override the API base `URL`")
	fs.BoolVar(&o.include, "i", false, "also print the response headers")
	fs.BoolVar(&o.printCurl, "print-curl", false, "print an equivalent signed curl command instead of sending")
	fs.BoolVar(&o.verbose, "verbose", false, "print the string-to-sign, the request headers and the answer's request id to stderr")
	fs.BoolVar(&o.verbose, "v", false, "short for --verbose")
	fs.StringVar(&o.field, "field", "", "print only this `field` of the answer (a dot path such as data.product_id); an error answer goes to stderr")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "request timeout")
	fs.BoolVar(&o.gzip, "gzip", false, "send the body gzip-compressed (Content-Encoding: gzip; signed as compressed), for routes that accept it such as POST /open/v1/products/bulk")
	fs.Var(&o.headers, "H", "extra request `header` \"Name: value\" (repeatable)")
	fs.StringVar(&o.contentType, "content-type", "", "the body's media `type` (default application/json), e.g. image/jpeg for an image upload")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })

	rest := fs.Args()
	if len(rest) > 0 && rest[0] == "listen" {
		return runListen(&o, rest[1:], stdout, stderr)
	}
	if len(rest) > 0 && rest[0] == "authorize" {
		return runAuthorize(&o, rest[1:], stdout, stderr)
	}
	if len(rest) > 0 && rest[0] == "label" {
		return runLabel(&o, rest[1:], stdout, stderr)
	}
	if len(rest) > 0 && rest[0] == "rotate-secret" {
		return runRotate(&o, rest[1:], stdout, stderr)
	}
	signOnly := len(rest) > 0 && rest[0] == "sign"
	if signOnly {
		rest = rest[1:]
		if o.printCurl || o.field != "" {
			fmt.Fprintln(stderr, "partnerctl: sign sends nothing: --print-curl and --field do not apply")
			return exitUsage
		}
	}
	if len(rest) < 2 || len(rest) > 3 {
		fmt.Fprintln(stderr, "partnerctl: want METHOD PATH [BODY|@file|-]")
		fs.Usage()
		return exitUsage
	}
	method, path := strings.ToUpper(rest[0]), rest[1]
	extra := http.Header{}
	for _, h := range o.headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			fmt.Fprintf(stderr, "partnerctl: header %q is not \"Name: value\"\n", h)
			return exitUsage
		}
		extra.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	if o.contentType != "" {
		extra.Set("Content-Type", o.contentType)
	}

	var body []byte
	var bodyFile string
	if len(rest) == 3 {
		var err error
		switch arg := rest[2]; {
		case arg == "-":
			body, err = io.ReadAll(stdin)
		case strings.HasPrefix(arg, "@"):
			bodyFile = arg[1:]
			body, err = os.ReadFile(bodyFile)
		default:
			body = []byte(arg)
		}
		if err != nil {
			fmt.Fprintf(stderr, "partnerctl: reading body: %v\n", err)
			return exitFail
		}
	}

	client, err := o.client(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}

	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	if o.gzip && o.printCurl {
		fmt.Fprintln(stderr, "partnerctl: --print-curl cannot show a compressed body; send it with --gzip instead")
		return exitUsage
	}
	req := sdk.Request{Method: method, Path: path, Body: body, ExtraHeaders: extra, Gzip: o.gzip}

	hr, err := client.NewRequest(ctx, req)
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	if o.gzip && hr.GetBody != nil {
		// What is signed and sent: the compressed bytes.
		if body, err = sentBody(hr); err != nil {
			fmt.Fprintf(stderr, "partnerctl: %v\n", err)
			return exitFail
		}
	}
	if o.verbose {
		printSigned(stderr, hr, body)
	}
	switch {
	case signOnly:
		printHeaders(stdout, hr.Header)
		fmt.Fprintln(stderr, "partnerctl: the headers are valid once, within the freshness window (90 s by default), for exactly this method, path, query and body")
		return exitOK
	case o.printCurl:
		fmt.Fprintln(stdout, curlCommand(hr, body, bodyFile))
		fmt.Fprintln(stderr, "partnerctl: the command is valid once, within the freshness window (90 s by default)")
		return exitOK
	}

	resp, err := client.Send(hr)
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	if o.verbose {
		printAnswerID(stderr, resp)
	}
	if o.field != "" {
		return printField(stdout, stderr, resp, o.field)
	}
	printResponse(stdout, resp, o.include)
	if !resp.OK() {
		return exitFail
	}
	return exitOK
}

// appFromFile loads the credential file and the app's client (no seller):
// the commands that change the file (authorize, rotate-secret) use it.
func (o *options) appFromFile() (*sdk.Credentials, *sdk.Client, error) {
	creds, err := sdk.LoadCredentials(o.credentials)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := creds.Config(o.app)
	if err != nil {
		return nil, nil, err
	}
	if o.baseURL != "" {
		cfg.BaseURL = o.baseURL
	}
	c, err := sdk.New(cfg)
	return creds, c, err
}

// client builds the SDK client from the credential file or the environment.
func (o *options) client(stderr io.Writer) (*sdk.Client, error) {
	envID, envSecret := os.Getenv("PARTNER_CLIENT_ID"), os.Getenv("PARTNER_CLIENT_SECRET")
	if !o.set["credentials"] && (envID != "" || envSecret != "") {
		return o.clientFromEnv(envID, envSecret)
	}

	creds, err := sdk.LoadCredentials(o.credentials)
	if err != nil {
		return nil, err
	}
	cfg, err := creds.Config(o.app)
	if err != nil {
		return nil, err
	}
	if o.baseURL != "" {
		cfg.BaseURL = o.baseURL
	}
	c, err := sdk.New(cfg)
	if err != nil {
		return nil, err
	}
	if o.noSeller {
		return c, nil
	}
	id, token, err := creds.SellerToken(o.seller, o.app)
	if err != nil {
		if o.set["seller"] {
			return nil, err
		}
		// The default seller is a convenience: an app without seller tokens
		// (the live app, say) still makes app-only calls.
		fmt.Fprintf(stderr, "partnerctl: no seller headers: %v\n", err)
		return c, nil
	}
	return c.WithSeller(id, token), nil
}

func (o *options) clientFromEnv(id, secret string) (*sdk.Client, error) {
	if o.set["app"] || o.set["seller"] {
		return nil, errors.New("--app and --seller select from a credential file; the environment provides credentials here")
	}
	cfg := sdk.Config{BaseURL: os.Getenv("PARTNER_BASE_URL"), ClientID: id, ClientSecret: secret}
	if o.baseURL != "" {
		cfg.BaseURL = o.baseURL
	}
	if cfg.BaseURL == "" {
		return nil, errors.New("PARTNER_BASE_URL is not set")
	}
	c, err := sdk.New(cfg)
	if err != nil {
		return nil, err
	}
	sellerID, token := os.Getenv("PARTNER_SELLER_ID"), os.Getenv("PARTNER_ACCESS_TOKEN")
	if o.noSeller || (sellerID == "" && token == "") {
		return c, nil
	}
	if sellerID == "" || token == "" {
		return nil, errors.New("set both PARTNER_SELLER_ID and PARTNER_ACCESS_TOKEN, or neither")
	}
	return c.WithSeller(sellerID, token), nil
}

func printResponse(w io.Writer, resp *sdk.Response, include bool) {
	fmt.Fprintf(w, "%d %s\n", resp.Status, http.StatusText(resp.Status))
	if include {
		names := make([]string, 0, len(resp.Header))
		for name := range resp.Header {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			for _, v := range resp.Header[name] {
				fmt.Fprintf(w, "%s: %s\n", name, v)
			}
		}
		fmt.Fprintln(w)
	}
	if len(resp.Body) == 0 {
		return
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, resp.Body, "", "  "); err == nil {
		pretty.WriteByte('\n')
		_, _ = w.Write(pretty.Bytes())
		return
	}
	_, _ = w.Write(resp.Body)
	if !bytes.HasSuffix(resp.Body, []byte("\n")) {
		fmt.Fprintln(w)
	}
}

// curlCommand renders hr as a curl command line that sends the same bytes.
func curlCommand(hr *http.Request, body []byte, bodyFile string) string {
	var b strings.Builder
	b.WriteString("curl -sS")
	u := hr.URL.String()
	if strings.ContainsAny(u, "[]{}") {
		b.WriteString(" -g") // stop curl from globbing brackets in the URL
	}
	if hr.Method != http.MethodGet || len(body) > 0 {
		b.WriteString(" -X " + shellQuote(hr.Method))
	}
	b.WriteString(" " + shellQuote(u))
	names := make([]string, 0, len(hr.Header))
	for name := range hr.Header {
		if name != "User-Agent" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range hr.Header[name] {
			b.WriteString(" \\\n  -H " + shellQuote(name+": "+v))
		}
	}
	switch {
	case len(body) == 0:
	case bodyFile != "":
		b.WriteString(" \\\n  --data-binary " + shellQuote("@"+bodyFile))
	default:
		b.WriteString(" \\\n  --data-binary " + shellQuote(string(body)))
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sentBody is the body hr sends, read from a copy.
func sentBody(hr *http.Request) ([]byte, error) {
	rc, err := hr.GetBody()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}
