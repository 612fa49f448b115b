package gateway

import (
	"context"
	"time"

	"golang.org/x/sync/singleflight"
	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/gateway/admission"
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
	// refreshed is when a signature that did not verify had this entry
	// fetched again (refresh); zero when it was fetched on a miss.
	refreshed time.Time
	// buckets are the app's rate buckets on a sandbox route (app, account,
	// sandbox); other routes are charged the first two. Read-only: built
	// with the entry, shared by its requests.
	buckets []admission.Bucket
}

// bucketsFor returns the buckets a request of the app is charged against.
func (c *appCredentials) bucketsFor(sandbox bool) []admission.Bucket {
	if sandbox {
		return c.buckets[:3:3]
	}
	return c.buckets[:2:2]
}

// credentialRefreshInterval is how often a signature that does not verify
// may have one app's credentials fetched again: a secret rotated through
// another gateway verifies here at once, and forged signatures under a real
// client id cost core at most one lookup per app per interval per gateway.
const credentialRefreshInterval = time.Second

// credentialCache fetches app credentials from core and keeps them briefly:
// one core call per app per TTL instead of one per request. Concurrent misses
// for one client id share a single fetch, and unknown ids are remembered for
// a shorter time so a flood of made-up ids does not reach core each time.
// A signature that the cached secrets do not verify has them fetched again
// (refresh), and a rotation relayed by this gateway drops the app's entry
// (drop): a new secret verifies at once on every replica, not after the TTL.
type credentialCache struct {
	client  credentialsv1.CredentialServiceClient
	ttl     time.Duration
	negTTL  time.Duration
	timeout time.Duration
	// entries hold nil for an unknown client id (a negative entry).
	entries *ttlcache.Cache[*appCredentials]
	group   singleflight.Group
	// refreshEvery bounds refresh to one fetch per app per interval.
	refreshEvery time.Duration
	// limits are the platform's rate ceilings, which an app's buckets are
	// made of.
	limits admission.Limits
	// onWait, when set, is told of each request that begins waiting on a
	// fetch of clientID (its own or one it joined), and what it returns is
	// told what ended that wait (the request's own context, or the fetch):
	// tests learn from it that requests share a lookup and that the gateway
	// saw one hang up, instead of waiting for time to pass. Nil in every
	// deployment.
	onWait func(clientID string) (stopped func(err error))
}

func newCredentialCache(client credentialsv1.CredentialServiceClient, ttl, timeout time.Duration, limits admission.Limits) *credentialCache {
	return &credentialCache{client: client, ttl: ttl, negTTL: 5 * time.Second, timeout: timeout,
		entries: ttlcache.New[*appCredentials](100_000), refreshEvery: credentialRefreshInterval, limits: limits}
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
	return c.wait(ctx, clientID, ch)
}

// refresh fetches clientID's credentials again because a signature did not
// verify under stale, the entry get returned: the app may have rotated its
// secret through another gateway. It returns the fresh credentials (nil when
// core no longer knows the client id), or stale itself when stale was
// refreshed less than refreshEvery ago, so that forged signatures do not
// turn into one core call each. Concurrent refreshes of one app share one
// fetch, and one that finds the entry already replaced takes the
// replacement without a fetch of its own.
func (c *credentialCache) refresh(ctx context.Context, clientID string, stale *appCredentials, now time.Time) (*appCredentials, error) {
	if !stale.refreshed.IsZero() && now.Sub(stale.refreshed) < c.refreshEvery {
		return stale, nil
	}
	ch := c.group.DoChan("refresh\x00"+clientID, func() (any, error) {
		if cur, ok := c.entries.Get(clientID, now); ok && cur != stale {
			return cur, nil
		}
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.timeout)
		defer cancel()
		creds, err := c.fetch(fctx, clientID)
		if err != nil {
			return nil, err
		}
		if creds == nil {
			c.entries.Put(clientID, nil, now.Add(c.negTTL))
			return creds, nil
		}
		creds.refreshed = now
		c.entries.Put(clientID, creds, now.Add(c.ttl))
		return creds, nil
	})
	return c.wait(ctx, clientID, ch)
}

// drop forgets clientID's credentials: the app's secret changed.
func (c *credentialCache) drop(clientID string) { c.entries.Delete(clientID) }

// wait returns a shared fetch's credentials, or ctx's error when it ends
// first.
func (c *credentialCache) wait(ctx context.Context, clientID string, ch <-chan singleflight.Result) (creds *appCredentials, err error) {
	if c.onWait != nil {
		stopped := c.onWait(clientID)
		defer func() { stopped(err) }()
	}
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
	creds.buckets = c.limits.Buckets(admission.Subject{AccountID: creds.accountID, AppID: creds.appID,
		AppPerMinute: creds.appPerMinute, AccountPerMinute: creds.accountPerMinute, Sandbox: true})
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
