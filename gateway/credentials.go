package gateway

import (
	"context"
	"time"

	"golang.org/x/sync/singleflight"
	"google.golang.org/grpc/status"

	credentialsv1 "github.com/mallplatform/partnerapi/gen/mp/credentials/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/internal/ttlcache"
	"github.com/mallplatform/partnerapi/sdk/signing"
)

// appCredentials is an app's verification material as the gateway caches it.
type appCredentials struct {
	appID, clientID, accountID, environment string
	scopes                                  []string
	active                                  bool
	appPerMinute, accountPerMinute          int64
	keys                                    []*signing.Key
	keyExpiry                               []time.Time // zero: no expiry
}

// credentialCache fetches app credentials from core and keeps them briefly:
// one core call per app per TTL instead of one per request. Concurrent misses
// for one client id share a single fetch, and unknown ids are remembered for
// a shorter time so a flood of made-up ids does not reach core each time.
type credentialCache struct {
	client  credentialsv1.CredentialServiceClient
	ttl     time.Duration
	negTTL  time.Duration
	timeout time.Duration
	// entries hold nil for an unknown client id (a negative entry).
	entries *ttlcache.Cache[*appCredentials]
	group   singleflight.Group
}

func newCredentialCache(client credentialsv1.CredentialServiceClient, ttl, timeout time.Duration) *credentialCache {
	return &credentialCache{client: client, ttl: ttl, negTTL: 5 * time.Second, timeout: timeout, entries: ttlcache.New[*appCredentials](100_000)}
}

// get returns the app's credentials, nil for an unknown client id, or an
// error when core could not answer within the lookup's deadline or ctx
// ended first.
func (c *credentialCache) get(ctx context.Context, clientID string, now time.Time) (*appCredentials, error) {
	if creds, ok := c.entries.Get(clientID, now); ok {
		return creds, nil
	}
	ch := c.group.DoChan(clientID, func() (any, error) {
		// Every request of the app that misses meanwhile waits for this
		// one fetch, so it must not end with the request that started it
		// (a client that hangs up would fail the others) nor run without
		// a deadline (a frozen core would hold them all).
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
		defer cancel()
		creds, err := c.fetch(fctx, clientID)
		if err != nil {
			return nil, err
		}
		ttl := c.ttl
		if creds == nil {
			ttl = c.negTTL
		}
		c.entries.Put(clientID, creds, now.Add(ttl))
		return creds, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		creds, _ := res.Val.(*appCredentials)
		return creds, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *credentialCache) fetch(ctx context.Context, clientID string) (*appCredentials, error) {
	resp, err := c.client.GetAppCredentials(ctx, &credentialsv1.GetAppCredentialsRequest{ClientId: clientID})
	if err != nil {
		if code, _ := apierr.FromStatus(status.Convert(err)); code == apierr.NotFound || code == apierr.ValidationError {
			return nil, nil
		}
		return nil, err
	}
	d := resp.GetData()
	creds := &appCredentials{
		appID:            d.GetAppId(),
		clientID:         d.GetClientId(),
		accountID:        d.GetAccountId(),
		environment:      d.GetEnvironment(),
		scopes:           d.GetScopes(),
		active:           d.GetActive(),
		appPerMinute:     d.GetAppRateLimitPerMinute(),
		accountPerMinute: d.GetAccountRateLimitPerMinute(),
	}
	for _, s := range d.GetSecrets() {
		creds.keys = append(creds.keys, signing.NewKey(s.GetSecret()))
		var exp time.Time
		if s.GetExpiresAt() != nil {
			exp = s.GetExpiresAt().AsTime()
		}
		creds.keyExpiry = append(creds.keyExpiry, exp)
	}
	return creds, nil
}

// liveKeys returns the secrets that verify at now: during a rotation the
// previous secret verifies until it expires.
func (a *appCredentials) liveKeys(now time.Time, into []*signing.Key) []*signing.Key {
	for i, k := range a.keys {
		if exp := a.keyExpiry[i]; !exp.IsZero() && !now.Before(exp) {
			continue
		}
		into = append(into, k)
	}
	return into
}
