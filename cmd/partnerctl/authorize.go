package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"time"

	"github.com/mallplatform/partnerapi/sdk"
)

const authorizeUsage = `usage: partnerctl [--app full] [--seller N] authorize [--login] [--redirect-uri URI] [--save]

Onboards a seller with the consent flow, as a partner's backend does: a signed
authorize (with PKCE), the seller's consent, then the code exchanged for tokens
at /open/v1/auth/token. Prints the token answer.

Without --login it prints the consent page's URL for a browser and waits for
the redirect on the loopback redirect URI (default
http://127.0.0.1:8765/callback, registered for the sandbox apps). With
--login it signs in as the test shop itself, with the login of seller N in the
credential file (username, password and the sandbox's fixed one-time code),
and consents: no browser.

--save writes the new tokens into the credential file, for seller N.

  partnerctl authorize --login --save
  partnerctl --app limited authorize
`

// authorizeFlow is one run of the consent flow from the partner's side.
type authorizeFlow struct {
	app         *sdk.Client
	creds       *sdk.Credentials
	redirectURI string
	seller      int
	state       string
	verifier    string
	out, errOut io.Writer
	timeout     time.Duration
}

func runAuthorize(o *options, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("partnerctl authorize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, authorizeUsage); fs.PrintDefaults() }
	var login, save bool
	f := &authorizeFlow{out: stdout, errOut: stderr, seller: o.seller, timeout: 5 * time.Minute}
	fs.BoolVar(&login, "login", false, "sign in as the credential file's test shop instead of waiting for a browser")
	fs.BoolVar(&save, "save", false, "write the tokens into the credential file")
	fs.StringVar(&f.redirectURI, "redirect-uri", "http://127.0.0.1:8765/callback", "the app's registered redirect `URI` to use")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return exitUsage
	}
	creds, app, err := o.appFromFile()
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	f.creds, f.app = creds, app
	tokens, err := f.run(context.Background(), login)
	if err != nil {
		fmt.Fprintf(stderr, "partnerctl: %v\n", err)
		return exitFail
	}
	if save {
		if err := f.save(o, tokens); err != nil {
			fmt.Fprintf(stderr, "partnerctl: %v\n", err)
			return exitFail
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(tokens)
	return exitOK
}

// issuedTokens is the token answer's data.
type issuedTokens struct {
	AccessToken           string   `json:"access_token"`
	RefreshToken          string   `json:"refresh_token"`
	TokenType             string   `json:"token_type"`
	ExpiresIn             int64    `json:"expires_in"`
	RefreshTokenExpiresIn int64    `json:"refresh_token_expires_in"`
	SellerID              string   `json:"seller_id"`
	Scopes                []string `json:"scopes"`
}

func randomString() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func (f *authorizeFlow) run(ctx context.Context, login bool) (*issuedTokens, error) {
	f.state, f.verifier = randomString(), randomString()
	sum := sha256.Sum256([]byte(f.verifier))
	q := url.Values{"client_id": {f.app.ClientID()}, "redirect_uri": {f.redirectURI}, "state": {f.state},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}}
	r, err := f.app.Do(ctx, http.MethodGet, "/open/v1/auth/authorize?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	location := r.Header.Get("Location")
	if r.Status != http.StatusFound || location == "" {
		return nil, fmt.Errorf("authorize answered %d: %s", r.Status, r.Body)
	}
	var code string
	if login {
		code, err = f.signIn(ctx, location)
	} else {
		code, err = f.viaBrowser(ctx, location)
	}
	if err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string]string{"code": code, "redirect_uri": f.redirectURI, "code_verifier": f.verifier})
	r, err = f.app.Do(ctx, http.MethodPost, "/open/v1/auth/token", body)
	if err != nil {
		return nil, err
	}
	var out struct {
		Data issuedTokens `json:"data"`
	}
	if !r.OK() || json.Unmarshal(r.Body, &out) != nil {
		return nil, fmt.Errorf("token exchange answered %d: %s", r.Status, r.Body)
	}
	return &out.Data, nil
}

// fromRedirect reads the code off the redirect back to the app, after
// checking the state it carries.
func (f *authorizeFlow) fromRedirect(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	q := u.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(f.state)) != 1 {
		return "", errors.New("the redirect carried another state: not this authorization's answer")
	}
	if e := q.Get("error"); e != "" {
		return "", fmt.Errorf("the seller did not consent (%s)", e)
	}
	if q.Get("code") == "" {
		return "", errors.New("the redirect carried no code")
	}
	return q.Get("code"), nil
}

// signIn plays the consent page's part with the test shop's login.
func (f *authorizeFlow) signIn(ctx context.Context, location string) (string, error) {
	if f.seller < 0 || f.seller >= len(f.creds.Sellers) || f.creds.Sellers[f.seller].Login == nil {
		return "", fmt.Errorf("seller %d of the credential file has no login", f.seller)
	}
	l := f.creds.Sellers[f.seller].Login
	page, err := url.Parse(location)
	if err != nil {
		return "", err
	}
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	post := func(path string, in any) (json.RawMessage, error) {
		b, _ := json.Marshal(in)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, page.Scheme+"://"+page.Host+path, bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s answered %d: %s", path, resp.StatusCode, body)
		}
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		return env.Data, json.Unmarshal(body, &env)
	}
	if _, err := post("/open/v1/auth/seller-verify", map[string]string{"session": page.Query().Get("session"),
		"username": l.Username, "password": l.Password}); err != nil {
		return "", err
	}
	if _, err := post("/open/v1/auth/seller-verify-otp", map[string]string{"code": l.OTP}); err != nil {
		return "", err
	}
	data, err := post("/open/v1/auth/seller-consent", struct{}{})
	if err != nil {
		return "", err
	}
	var redirect struct {
		RedirectURL string `json:"redirect_url"`
	}
	if err := json.Unmarshal(data, &redirect); err != nil {
		return "", err
	}
	return f.fromRedirect(redirect.RedirectURL)
}

// viaBrowser prints the consent URL and waits on the loopback redirect URI.
func (f *authorizeFlow) viaBrowser(ctx context.Context, location string) (string, error) {
	u, err := url.Parse(f.redirectURI)
	if err != nil || u.Scheme != "http" {
		return "", errors.New("without --login the redirect URI must be a loopback http one partnerctl can listen on")
	}
	lis, err := net.Listen("tcp", u.Host)
	if err != nil {
		return "", err
	}
	type result struct {
		code string
		err  error
	}
	done := make(chan result, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != u.Path {
			http.NotFound(w, r)
			return
		}
		code, err := f.fromRedirect(r.URL.String())
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err != nil {
			fmt.Fprintf(w, "partnerctl: %v\n", err)
		} else {
			fmt.Fprintln(w, "partnerctl has the authorization code; you can close this tab.")
		}
		select {
		case done <- result{code, err}:
		default:
		}
	})}
	go func() { _ = srv.Serve(lis) }()
	defer srv.Close()
	fmt.Fprintf(f.errOut, "Open this page in a browser and sign in as the seller:\n\n  %s\n\nWaiting for the redirect to %s ...\n", location, f.redirectURI)
	select {
	case r := <-done:
		return r.code, r.err
	case <-time.After(f.timeout):
		return "", errors.New("no redirect came back in time")
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// save records the tokens for the seller in the credential file: the
// seller at --seller when it is the one that consented, else a new entry.
func (f *authorizeFlow) save(o *options, t *issuedTokens) error {
	pair := sdk.TokenPair{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken}
	for i := range f.creds.Sellers {
		if s := &f.creds.Sellers[i]; s.SellerID == t.SellerID {
			if s.Tokens == nil {
				s.Tokens = map[string]sdk.TokenPair{}
			}
			s.Tokens[o.app] = pair
			return f.creds.Save(o.credentials)
		}
	}
	f.creds.Sellers = append(f.creds.Sellers, sdk.SellerCredentials{SellerID: t.SellerID, Tokens: map[string]sdk.TokenPair{o.app: pair}})
	return f.creds.Save(o.credentials)
}
