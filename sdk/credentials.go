package sdk

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// App names in the sandbox credential file.
const (
	AppFull    = "full"    // every scope
	AppLimited = "limited" // catalog:read and orders:read
	AppLive    = "live"    // a live-kind app, refused by the sandbox host
)

// Credentials is the dev sandbox's credential file, written by the dev role
// at start-up and read by partnerctl and the project's tests.
type Credentials struct {
	Environment string                    `json:"environment"`
	BaseURL     string                    `json:"base_url"`
	GRPCAddress string                    `json:"grpc_address"`
	Apps        map[string]AppCredentials `json:"apps"`
	Sellers     []SellerCredentials       `json:"sellers"`
}

// AppCredentials are one partner app's client credentials and granted scopes.
type AppCredentials struct {
	ClientID     string   `json:"client_id"`
	ClientSecret string   `json:"client_secret"`
	Scopes       []string `json:"scopes"`
	// RedirectURIs are the app's registered redirect URIs of the consent
	// flow (matched exactly).
	RedirectURIs []string `json:"redirect_uris,omitempty"`
}

// SellerCredentials are one seeded seller and the tokens it granted, keyed by
// app name.
type SellerCredentials struct {
	SellerID string               `json:"seller_id"`
	Tokens   map[string]TokenPair `json:"tokens"`
	// Login signs the test shop in on the consent pages.
	Login *SellerLogin `json:"login,omitempty"`
}

// SellerLogin is a test shop's sign-in on the consent pages: in the
// sandbox, its one-time code is fixed.
type SellerLogin struct {
	Username string `json:"username"`
	Password string `json:"password"`
	OTP      string `json:"otp"`
}

// TokenPair is a seller's access and refresh token for one app.
type TokenPair struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

// LoadCredentials reads a credential file.
func LoadCredentials(path string) (*Credentials, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sdk: credentials: %w", err)
	}
	var c Credentials
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("sdk: credentials %s: %w", path, err)
	}
	if c.BaseURL == "" {
		return nil, fmt.Errorf("sdk: credentials %s: base_url is empty", path)
	}
	if len(c.Apps) == 0 {
		return nil, fmt.Errorf("sdk: credentials %s: no apps", path)
	}
	return &c, nil
}

// Save writes c to path as indented JSON, readable by the owner only since it
// holds secrets. It writes a temporary file and renames it, so a reader never
// sees half a file.
func (c *Credentials) Save(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".credentials-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // fails harmlessly once renamed
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// CreateTemp already creates the file with mode 0600.
	return os.Rename(f.Name(), path)
}

// App returns the named app's credentials.
func (c *Credentials) App(name string) (AppCredentials, error) {
	a, ok := c.Apps[name]
	if !ok {
		return AppCredentials{}, fmt.Errorf("sdk: credentials have no app %q", name)
	}
	if a.ClientID == "" || a.ClientSecret == "" {
		return AppCredentials{}, fmt.Errorf("sdk: app %q has no client id or secret", name)
	}
	return a, nil
}

// Config returns a client configuration for the named app.
func (c *Credentials) Config(app string) (Config, error) {
	a, err := c.App(app)
	if err != nil {
		return Config{}, err
	}
	return Config{BaseURL: c.BaseURL, ClientID: a.ClientID, ClientSecret: a.ClientSecret}, nil
}

// SellerToken returns the seller id and the access token that seller index
// granted to the named app.
func (c *Credentials) SellerToken(index int, app string) (sellerID, accessToken string, err error) {
	if index < 0 || index >= len(c.Sellers) {
		return "", "", fmt.Errorf("sdk: credentials have %d sellers, no seller %d", len(c.Sellers), index)
	}
	s := c.Sellers[index]
	t, ok := s.Tokens[app]
	if !ok || t.AccessToken == "" {
		return "", "", fmt.Errorf("sdk: seller %d (%s) has no access token for app %q", index, s.SellerID, app)
	}
	return s.SellerID, t.AccessToken, nil
}

// Client returns a client for the named app acting for seller index, or for
// the app alone when seller is negative.
func (c *Credentials) Client(app string, seller int) (*Client, error) {
	cfg, err := c.Config(app)
	if err != nil {
		return nil, err
	}
	cl, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if seller < 0 {
		return cl, nil
	}
	id, token, err := c.SellerToken(seller, app)
	if err != nil {
		return nil, err
	}
	return cl.WithSeller(id, token), nil
}
