package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mallplatform/partnerapi/internal/clock"
	"github.com/mallplatform/partnerapi/internal/core"
	"github.com/mallplatform/partnerapi/internal/db"
	"github.com/mallplatform/partnerapi/services/auth"
	"github.com/mallplatform/partnerapi/services/catalog"
	"github.com/mallplatform/partnerapi/services/catalog/taxonomy"
	"github.com/mallplatform/partnerapi/services/sandbox/sandboxseed"
	"github.com/mallplatform/partnerapi/services/sellers"
	"github.com/mallplatform/partnerapi/services/shipping/channels"
)

const adminUsage = `usage: mpserver admin <command> [flags]

commands (each prints JSON; secrets and tokens are shown once):
  create-account    --name N --email E [--rate-limit PER_MINUTE]
  create-app        --account ID --name N --environment sandbox|production --scopes a,b [--rate-limit PER_MINUTE]
                    [--redirect-uri U ...]   (the consent flow's redirect URIs, matched exactly; repeatable)
  create-test-shop  --name N --shop-name S [--username U --otp-destination +639… --otp NNNNNN]
                    (with --username: its consent-page login, the password read from standard input,
                    and the sandbox's fixed one-time code)
  create-seller-login --seller ID --username U --otp-destination +639…|EMAIL
                    (a shop's consent-page login; the password is read from standard input)
  authorize-seller  --app ID --seller ID [--scopes a,b]   (issues seller tokens, as the consent flow would)
  rotate-secret     --app ID [--grace 24h]   (new secret; the old one verifies until the grace ends)
  deactivate-app    --app ID
  activate-app      --app ID
  seed-sandbox      --credentials-file F [--base-url U] [--grpc-address A]
                    (fills an empty sandbox database like the dev role does and writes its credentials)
  create-internal-caller  --name N [--services mp.orders.v1.OrdersService,...]
                    (a platform team's token for core's gRPC port; without --services it reaches
                    every service open to internal callers, never the gateway's own)
  revoke-internal-caller  --id ID   (core refuses the token within 5 s)
  list-internal-callers
  load-taxonomy     [--file F]   (stores the category tree on a database that has none: the built-in
                    services/catalog/taxonomy/categories.json, or an edited copy)
  load-channels     [--file F]   (replaces the stored shipping channels, all at once, with the built-in
                    services/shipping/channels/channels.json or an edited copy; checked before anything is written)
  review-profile    --account ID --decision approve|reject   (the operator's decision on a developer
                    account's pending console profile; only approved accounts create live apps)
  audit             --account ID   (the account's console changes: who, what, when, from which address)
  calendar set|delete|import FILE   (edits the shipping calendar through core's internal admin
                    service; mpserver admin calendar --help)
  maintenance on|off --environment sandbox|production [--until TIME] [--message TEXT]
                    (partner routes of the environment answer 503 MAINTENANCE while on, on every gateway
                    within 5 s; through core's internal admin service; mpserver admin maintenance --help)

common flags: --database-url ($MP_DATABASE_URL), --db-driver postgres|sqlite ($MP_DB_DRIVER), --secret-key ($MP_SECRET_KEY;
not needed by the internal-caller commands)
`

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// createLogin reads the password from the first line of stdin (never a
// flag: command lines end up in shell histories and process lists).
func createLogin(ctx context.Context, svc *auth.Service, stdin io.Reader, in auth.NewSellerLogin, testShop bool) error {
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read the password from standard input: %w", err)
	}
	in.Password = strings.TrimRight(line, "\r\n")
	return svc.CreateSellerLogin(ctx, in, testShop)
}

func runAdmin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	cmd, rest := args[0], args[1:]
	if cmd == "calendar" {
		// Over core's gRPC port, not the database: no database flags.
		return runAdminCalendar(ctx, rest, stdout, stderr)
	}
	if cmd == "maintenance" {
		// Over core's gRPC port too.
		return runAdminMaintenance(ctx, rest, stdout, stderr)
	}
	var dsn, driver, secretKey, name, email, account, environment, scopes, shopName, appID, sellerID string
	var username, otpDestination, otp string
	var redirects listFlag
	var rateLimit int
	var credsFile, baseURL, grpcAddress, callerID, services, dataFile string
	var grace time.Duration
	var decision string
	fs := newFlagSet("admin "+cmd, stderr)
	fs.secretURL(&dsn, "database-url", "MP_DATABASE_URL", "database URL (PostgreSQL) or file (SQLite)")
	fs.str(&driver, "db-driver", "MP_DB_DRIVER", db.DriverPostgres, "postgres or sqlite")
	fs.secret(&secretKey, "secret-key", "MP_SECRET_KEY", "base64 32-byte key that seals app secrets")
	fs.StringVar(&name, "name", "", "name")
	fs.StringVar(&email, "email", "", "account email")
	fs.StringVar(&account, "account", "", "developer account id")
	fs.StringVar(&environment, "environment", "sandbox", "sandbox or production")
	fs.StringVar(&scopes, "scopes", "", "comma-separated scopes: "+strings.Join(auth.KnownScopes, ","))
	fs.StringVar(&shopName, "shop-name", "", "shop name")
	fs.StringVar(&appID, "app", "", "app id")
	fs.StringVar(&sellerID, "seller", "", "seller id")
	fs.Var(&redirects, "redirect-uri", "a redirect URI of the consent flow (repeatable)")
	fs.StringVar(&username, "username", "", "a seller's consent-page username")
	fs.StringVar(&otpDestination, "otp-destination", "", "where a seller's one-time codes go (+639… or an e-mail address)")
	fs.StringVar(&otp, "otp", "", "a test shop's fixed sandbox one-time code (6 digits)")
	fs.IntVar(&rateLimit, "rate-limit", 0, "per-minute override (0: platform default)")
	fs.DurationVar(&grace, "grace", 24*time.Hour, "how long the previous secret keeps verifying after rotate-secret")
	fs.StringVar(&credsFile, "credentials-file", "", "where seed-sandbox writes the credentials")
	fs.StringVar(&baseURL, "base-url", "http://127.0.0.1:8080", "base URL recorded in the credentials")
	fs.StringVar(&grpcAddress, "grpc-address", "127.0.0.1:9090", "gRPC address recorded in the credentials")
	fs.StringVar(&callerID, "id", "", "internal caller id")
	fs.StringVar(&dataFile, "file", "", "the file load-taxonomy or load-channels reads (default: the built-in one)")
	fs.StringVar(&services, "services", "", "comma-separated gRPC services an internal caller may reach (empty: all open to internal callers)")
	fs.StringVar(&decision, "decision", "", "review-profile: approve or reject")
	if err := fs.Parse(rest); err != nil {
		return err
	}
	if secretKey == "" && (strings.HasSuffix(cmd, "-internal-caller") || cmd == "list-internal-callers" || cmd == "load-taxonomy" || cmd == "load-channels") {
		// These commands seal nothing: a throwaway key lets operators run
		// them without holding the key that seals app secrets.
		secretKey = auth.NewKey()
	}
	d, err := db.Open(ctx, db.Config{Driver: driver, DSN: dsn})
	if err != nil {
		return err
	}
	defer d.Close()
	sealer, err := auth.NewSealer(secretKey)
	if err != nil {
		return err
	}
	svc, err := auth.NewService(auth.Config{Store: auth.NewEntStore(d.Ent), Sealer: sealer, Clock: clock.System{}})
	if err != nil {
		return err
	}
	var override *int
	if rateLimit > 0 {
		override = &rateLimit
	}
	var out any
	switch cmd {
	case "create-account":
		a, err := svc.CreateAccount(ctx, auth.NewAccount{Name: name, Email: email, RateLimitPerMinute: override})
		if err != nil {
			return err
		}
		out = map[string]any{"account_id": a.ID, "name": a.Name, "email": a.Email, "rate_limit_per_minute": a.RateLimitPerMinute}
	case "create-app":
		a, err := svc.CreateApp(ctx, auth.NewApp{AccountID: account, Name: name, Environment: environment, Scopes: splitList(scopes), RateLimitPerMinute: override, RedirectURIs: redirects})
		if err != nil {
			return err
		}
		out = map[string]any{"app_id": a.App.ID, "client_id": a.App.ClientID, "client_secret": a.ClientSecret, "environment": a.App.Environment, "scopes": a.App.Scopes, "rate_limit_per_minute": a.App.RateLimitPerMinute, "redirect_uris": a.App.RedirectURIs}
	case "create-test-shop":
		s, err := svc.CreateTestShop(ctx, name, shopName)
		if err != nil {
			return err
		}
		// Every test shop has pickup addresses to quote and book from.
		if err := sellers.NewService(sellers.Config{Store: sellers.NewEntStore(d)}).SeedTestShop(ctx, s.ID); err != nil {
			return err
		}
		if username != "" {
			if err := createLogin(ctx, svc, stdin, auth.NewSellerLogin{SellerID: s.ID, Username: username,
				Destination: otpDestination, FixedOTP: otp}, true); err != nil {
				return err
			}
		}
		out = map[string]any{"seller_id": s.ID, "name": s.Name, "shop_name": s.ShopName, "test_shop": s.TestShop, "username": auth.NormalizeUsername(username)}
	case "create-seller-login":
		if err := createLogin(ctx, svc, stdin, auth.NewSellerLogin{SellerID: sellerID, Username: username,
			Destination: otpDestination}, false); err != nil {
			return err
		}
		out = map[string]any{"seller_id": sellerID, "username": auth.NormalizeUsername(username)}
	case "authorize-seller":
		t, err := svc.AuthorizeSeller(ctx, appID, sellerID, splitList(scopes), auth.AccessTokenTTL, auth.RefreshTokenTTL)
		if err != nil {
			return err
		}
		out = map[string]any{"authorization_id": t.AuthorizationID, "seller_id": sellerID, "access_token": t.AccessToken, "refresh_token": t.RefreshToken, "access_expires_at": t.AccessExpires, "refresh_expires_at": t.RefreshExpires}
	case "rotate-secret":
		secret, expires, err := svc.RotateSecret(ctx, appID, grace)
		if err != nil {
			return err
		}
		out = map[string]any{"app_id": appID, "client_secret": secret, "previous_secret_expires_at": expires}
	case "deactivate-app", "activate-app":
		if err := svc.SetAppActive(ctx, appID, cmd == "activate-app"); err != nil {
			return err
		}
		out = map[string]any{"app_id": appID, "active": cmd == "activate-app"}
	case "seed-sandbox":
		if credsFile == "" {
			return errors.New("seed-sandbox needs --credentials-file")
		}
		empty, err := svc.Empty(ctx)
		if err != nil {
			return err
		}
		if !empty {
			return errors.New("seed-sandbox runs on an empty database only")
		}
		creds, err := sandboxseed.Seed(ctx, sandboxseed.Deps{DB: d, Auth: svc, Clock: clock.System{}, Seed: uint64(time.Now().UnixNano())})
		if err != nil {
			return err
		}
		creds.BaseURL, creds.GRPCAddress = baseURL, grpcAddress
		if err := creds.Save(credsFile); err != nil {
			return err
		}
		out = map[string]any{"credentials_file": credsFile, "sellers": len(creds.Sellers), "apps": len(creds.Apps)}
	case "create-internal-caller":
		names := splitList(services)
		if err := checkInternalServices(names); err != nil {
			return err
		}
		c, err := svc.CreateInternalCaller(ctx, auth.NewInternalCaller{Name: name, Services: names})
		if err != nil {
			return err
		}
		out = internalCallerJSON(c.Caller, c.Token)
	case "revoke-internal-caller":
		c, err := svc.RevokeInternalCaller(ctx, callerID)
		if err != nil {
			return err
		}
		out = internalCallerJSON(c, "")
	case "list-internal-callers":
		cs, err := svc.ListInternalCallers(ctx)
		if err != nil {
			return err
		}
		list := make([]map[string]any, len(cs))
		for i, c := range cs {
			list[i] = internalCallerJSON(c, "")
		}
		out = list
	case "load-taxonomy":
		tree, source, err := readTaxonomy(dataFile)
		if err != nil {
			return err
		}
		loaded, err := catalog.LoadTaxonomy(ctx, catalog.NewEntStore(d), tree)
		if err != nil {
			return err
		}
		cats, attrs := catalog.Flatten(tree)
		report := map[string]any{"source": source, "loaded": loaded, "categories": len(cats), "attributes": len(attrs)}
		if !loaded {
			report["note"] = "the database already holds a category tree; nothing was written"
		}
		out = report
	case "review-profile", "audit":
		out, err = adminDeveloper(ctx, d, cmd, account, decision)
		if err != nil {
			return err
		}
	case "load-channels":
		out, err = loadChannels(ctx, channels.NewEntStore(d), dataFile)
		if err != nil {
			return err
		}
	default:
		fmt.Fprint(stderr, adminUsage)
		return errors.New("unknown admin command " + cmd)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// loadChannels replaces the stored channel set with a file's (or the
// built-in one) and reports what is stored now.
func loadChannels(ctx context.Context, store *channels.EntStore, path string) (map[string]any, error) {
	source := "built-in"
	var set []channels.Channel
	var err error
	if path == "" {
		set, err = channels.Default()
	} else {
		source = path
		set, err = channels.LoadFile(path)
	}
	if err != nil {
		return nil, err
	}
	version, err := store.Replace(ctx, set)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(set))
	active := 0
	for _, c := range set {
		ids = append(ids, c.ID)
		if c.Active {
			active++
		}
	}
	return map[string]any{"source": source, "channels": ids, "active": active, "version": version}, nil
}

// readTaxonomy reads the taxonomy to load: a file, or the built-in one.
func readTaxonomy(path string) (*taxonomy.Tree, string, error) {
	if path == "" {
		t, err := taxonomy.Default()
		return t, "built-in", err
	}
	t, err := taxonomy.Load(path)
	return t, path, err
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// checkInternalServices refuses a service internal callers may not reach
// (or that does not exist), naming those they may.
func checkInternalServices(names []string) error {
	if len(names) == 0 {
		return nil
	}
	open, err := core.InternalServices()
	if err != nil {
		return err
	}
	for _, n := range names {
		if !slices.Contains(open, n) {
			return fmt.Errorf("%q is not a service internal callers may reach; these are: %s", n, strings.Join(open, ", "))
		}
	}
	return nil
}

func internalCallerJSON(c *auth.InternalCaller, token string) map[string]any {
	m := map[string]any{"caller_id": c.ID, "name": c.Name, "services": c.Services, "created_at": c.CreatedAt, "revoked_at": c.RevokedAt}
	if token != "" {
		m["token"] = token
	}
	return m
}
