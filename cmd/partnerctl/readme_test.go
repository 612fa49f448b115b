package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gocloud.dev/blob/fileblob"

	"github.com/mallplatform/partnerapi/internal/testenv"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// repoRoot is where README.md and examples/ are, seen from this package.
const repoRoot = "../.."

// readmeLine is one partnerctl command of the README, split into words.
type readmeLine struct {
	text string
	// capture names the shell variable of VAR=$(go run ./cmd/partnerctl ...).
	capture string
	args    []string
	// redirect is the file of "> file".
	redirect string
}

// TestReadmeExamples runs every partnerctl line of README.md's sh blocks,
// as printed, from a directory laid out like a checkout after
// `mpserver dev` (data/sandbox-credentials.json and examples/), against an
// in-process sandbox. Each must answer 2xx; the headers of a sign line must
// verify when another HTTP client sends them.
func TestReadmeExamples(t *testing.T) {
	clearEnv(t)
	lines := readmePartnerctlLines(t)
	// Uploads stored in a directory and served by the gateway, as in dev.
	bucket, err := fileblob.OpenBucket(t.TempDir(), &fileblob.Options{NoTempDir: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bucket.Close() })
	env := testenv.Start(t, testenv.Options{Uploads: bucket})
	// The dev role's credential file, pointing at this platform.
	dir := t.TempDir()
	if err := env.Creds.Save(filepath.Join(dir, defaultCredentials)); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "examples"), os.DirFS(filepath.Join(repoRoot, "examples"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)

	vars := map[string]string{}
	seen := map[string]bool{}
	for _, l := range lines {
		args := expandAll(t, l, vars)
		code, out, errOut := runCLI(t, "", args...)
		if code != exitOK {
			t.Fatalf("README line\n  %s\nexit %d\nstdout %s\nstderr %s", l.text, code, out, errOut)
		}
		switch {
		case l.capture != "":
			vars[l.capture] = strings.TrimSuffix(out, "\n")
			if vars[l.capture] == "" {
				t.Fatalf("README line %s captured nothing", l.text)
			}
		case l.redirect != "":
			if err := os.WriteFile(l.redirect, []byte(out), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, a := range args {
			if strings.HasPrefix(a, "@") || a == "sign" || a == "--verbose" || a == "--print-curl" || a == "--field" || a == "--content-type" {
				seen[a] = true
			}
		}
		if slices.Index(args, "sign") >= 0 {
			sendSigned(t, env.BaseURL, args, out)
		}
	}
	for _, want := range []string{"@examples/product-create.json", "@examples/product-update.json", "@examples/product-photo.jpg", "sign", "--verbose", "--print-curl", "--field", "--content-type"} {
		if !seen[want] {
			t.Errorf("no README line uses %s", want)
		}
	}
}

// TestReadmeMismatchBody checks the sandbox INVALID_SIGNATURE body that the
// README shows against the platform's own answer to the same mistake (the
// query signed as written), the fields that vary per request aside.
func TestReadmeMismatchBody(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	shown := regexp.MustCompile("(?m)^\\{\"success\":false,\"error\":\\{\"code\":\"INVALID_SIGNATURE\".*$").Find(readme)
	if shown == nil {
		t.Fatal("README shows no INVALID_SIGNATURE body")
	}
	echo := regexp.MustCompile(`\[(\d+):(test_[a-z0-9]+):([A-Z]+):([^:]*):([^:]*):([0-9a-f]{64}):([0-9a-f]+)\]`)
	m := echo.FindSubmatch(shown)
	if m == nil {
		t.Fatalf("README's body names no string-to-sign: %s", shown)
	}
	method, path := string(m[3]), string(m[4])

	env := testenv.Start(t, testenv.Options{})
	app := env.Creds.Apps["full"]
	signedQuery := "status=SHIPPED&limit=5" // as the README says the partner signed it
	right := signing.Request{Timestamp: signing.FormatTimestamp(env.Clock.Now()), ClientID: app.ClientID, Method: method,
		Path: path, RawQuery: signedQuery, Nonce: signing.NewNonce()}
	wrong := right.Timestamp + ":" + right.ClientID + ":" + method + ":" + path + ":" + signedQuery + ":" + signing.BodySHA256(nil) + ":" + right.Nonce
	req, err := http.NewRequest(method, env.BaseURL+path+"?"+signedQuery, nil)
	if err != nil {
		t.Fatal(err)
	}
	signing.Headers{PartnerID: right.ClientID, Timestamp: right.Timestamp, SignatureVersion: signing.Version, Nonce: right.Nonce,
		Signature: signing.Sign([]byte(app.ClientSecret), wrong)}.Set(req.Header)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got bytes.Buffer
	_, _ = got.ReadFrom(resp.Body)
	if resp.StatusCode != 401 {
		t.Fatalf("status %d: %s", resp.StatusCode, got.Bytes())
	}
	if string(m[5]) == signedQuery {
		t.Fatal("README's example echoes the query as signed, not canonical")
	}
	// Put the README's per-request values into the live answer, then the two
	// must be the same bytes.
	var b sdk.Envelope
	if err := json.Unmarshal(got.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	live := strings.NewReplacer(right.Timestamp, string(m[1]), right.ClientID, string(m[2]), right.Nonce, string(m[7]),
		b.RequestID, requestIDOf(t, shown)).Replace(got.String())
	if live != string(shown) {
		t.Fatalf("README shows\n%s\nthe sandbox answers\n%s", shown, live)
	}
}

func requestIDOf(t *testing.T, body []byte) string {
	t.Helper()
	var b sdk.Envelope
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("README's body is not JSON: %v", err)
	}
	return b.RequestID
}

// sendSigned sends the request of a sign line with the headers it printed,
// as curl -H @file would, and requires a 2xx.
func sendSigned(t *testing.T, baseURL string, args []string, headers string) {
	t.Helper()
	i := slices.Index(args, "sign")
	method, path := args[i+1], args[i+2]
	var body []byte
	if len(args) > i+3 {
		var err error
		if body, err = os.ReadFile(strings.TrimPrefix(args[i+3], "@")); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, baseURL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(headers), "\n") {
		name, value, _ := strings.Cut(line, ": ")
		req.Header.Add(name, value)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("the headers of %q answered %d: %s", strings.Join(args, " "), resp.StatusCode, b.Bytes())
	}
}

var captureLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)=\$\(go run \./cmd/partnerctl (.*)\)$`)

// readmePartnerctlLines returns the partnerctl commands of README.md's sh
// blocks.
func readmePartnerctlLines(t *testing.T) []readmeLine {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []readmeLine
	inBlock := false
	for _, raw := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(raw, "```sh"):
			inBlock = true
			continue
		case strings.HasPrefix(raw, "```"):
			inBlock = false
			continue
		}
		if !inBlock || !strings.Contains(raw, "./cmd/partnerctl") {
			continue
		}
		l := readmeLine{text: raw}
		cmd := strings.TrimSpace(stripComment(raw))
		if m := captureLine.FindStringSubmatch(cmd); m != nil {
			l.capture, cmd = m[1], "go run ./cmd/partnerctl "+m[2]
		}
		words, err := shellWords(cmd)
		if err != nil {
			t.Fatalf("README line %q: %v", raw, err)
		}
		if len(words) < 3 || words[0] != "go" || words[1] != "run" || words[2] != "./cmd/partnerctl" {
			t.Fatalf("README line %q is not `go run ./cmd/partnerctl ...`", raw)
		}
		l.args = words[3:]
		if n := len(l.args); n >= 2 && l.args[n-2] == ">" {
			l.redirect, l.args = l.args[n-1], l.args[:n-2]
		}
		lines = append(lines, l)
	}
	if len(lines) < 6 {
		t.Fatalf("found %d partnerctl lines in README.md; the parser is lost", len(lines))
	}
	return lines
}

// stripComment drops a # comment that starts a word outside quotes.
func stripComment(s string) string {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return s[:i]
		}
	}
	return s
}

// shellWords splits a command line as sh would for the forms README uses:
// single quotes, double quotes, bare words; $VAR stays for expandAll, marked
// by a NUL in front when it was not in single quotes.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errUnclosed
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, errUnclosed
			}
			cur.WriteString(strings.ReplaceAll(s[i+1:i+1+j], "$", "\x00$"))
			i += j + 1
			inWord = true
		case '$':
			cur.WriteString("\x00$")
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

var errUnclosed = errors.New("unclosed quote")

var shellVar = regexp.MustCompile(`\x00\$([A-Za-z_][A-Za-z0-9_]*)`)

// expandAll replaces $VAR in l's words with the values captured so far.
func expandAll(t *testing.T, l readmeLine, vars map[string]string) []string {
	t.Helper()
	out := make([]string, len(l.args))
	for i, a := range l.args {
		out[i] = shellVar.ReplaceAllStringFunc(a, func(m string) string {
			v, ok := vars[m[2:]]
			if !ok {
				t.Fatalf("README line %q uses %s before setting it", l.text, m[1:])
			}
			return v
		})
	}
	return out
}
