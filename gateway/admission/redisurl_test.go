package admission_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/rueidis"

	"github.com/mallplatform/partnerapi/gateway/admission"
)

func TestParseRedisURL(t *testing.T) {
	opt, err := admission.ParseRedisURL("rediss://gateway:s3cret@redis.example.ph:6380/2")
	if err != nil {
		t.Fatal(err)
	}
	if opt.InitAddress[0] != "redis.example.ph:6380" || opt.Username != "gateway" || opt.Password != "s3cret" || opt.SelectDB != 2 {
		t.Fatalf("parsed %v user %q password %q db %d", opt.InitAddress, opt.Username, opt.Password, opt.SelectDB)
	}
	if opt.TLSConfig == nil || opt.TLSConfig.ServerName != "redis.example.ph" || opt.TLSConfig.InsecureSkipVerify {
		t.Fatalf("rediss:// without verified TLS to the host: %+v", opt.TLSConfig)
	}
	opt, err = admission.ParseRedisURL("redis://:only-a-password@10.0.0.5")
	if err != nil {
		t.Fatal(err)
	}
	if opt.InitAddress[0] != "10.0.0.5:6379" || opt.Password != "only-a-password" || opt.TLSConfig != nil {
		t.Fatalf("parsed %v password %q tls %v", opt.InitAddress, opt.Password, opt.TLSConfig)
	}
	// The address of earlier releases is not a URL; it stays in Addr.
	if _, err := admission.NewRedis(admission.RedisConfig{Addr: "rediss://u:p@h:6380"}); err == nil {
		t.Fatal("a URL accepted as Addr")
	}
	if _, err := admission.NewRedis(admission.RedisConfig{URL: "redis://h", Addr: "h:6379"}); err == nil {
		t.Fatal("URL and Addr both accepted")
	}
}

// No error about a Redis URL repeats its password, whatever is wrong with it.
func TestRedisURLErrorsHideThePassword(t *testing.T) {
	const pw = "Hunter2-9f8e7d"
	for _, raw := range []string{
		"redis//gateway:" + pw + "@redis:6379",
		"http://gateway:" + pw + "@redis:6379",
		"redis://gateway:" + pw + "%zz@redis:6379",
		"redis://gateway:" + pw + "@redis:port",
		"redis://gateway:" + pw + "@redis:99999",
		"redis://gateway:" + pw + "@redis:6379/zero",
		"redis://gateway:" + pw + "@redis:6379/0/1",
		"redis://gateway:" + pw + "@redis:6379/0?dial_timeout=" + pw,
		"redis://gateway:" + pw + "@[::1:6379",
		"redis://gateway:" + pw + "@",
		"rediss://gateway:" + pw + "@redis:6379/0#frag",
		"redis://gateway:" + pw + " @redis:6379",
		// Unescaped '/', '?', '#' in a password that starts with digits:
		// the digits read as a port, the rest as the database or options.
		"redis://gateway:2024/" + pw + "@redis:6379",
		"redis://gateway:2024/" + pw + "@redis:6379/0",
		"redis://:2024/" + pw + "@redis:6379",
		"redis://gateway:2024?" + pw + "@redis:6379",
		"redis://gateway:2024#" + pw + "@redis:6379",
	} {
		_, err := admission.ParseRedisURL(raw)
		if err == nil {
			t.Errorf("%q accepted", strings.ReplaceAll(raw, pw, "PW"))
			continue
		}
		if strings.Contains(err.Error(), pw) || strings.Contains(err.Error(), pw[:7]) {
			t.Errorf("error repeats the password: %v", err)
		}
		if _, err := admission.NewRedis(admission.RedisConfig{URL: raw}); err == nil || strings.Contains(err.Error(), pw[:7]) {
			t.Errorf("NewRedis: %v", err)
		}
	}
	for _, raw := range []string{"rediss://gateway:" + pw + "@redis:6380/1", "rediss://gateway:2024/" + pw + "@redis:6380/1"} {
		if got := admission.RedactRedisURL(raw); strings.Contains(got, pw) || !strings.Contains(got, "redis:6380") {
			t.Errorf("redacted: %s", got)
		}
	}
}

// A URL with a user, a password and a database reaches that database as
// that user (an ACL user made for the test).
func TestRedisURLUserPasswordDatabase(t *testing.T) {
	addr := redisAddr(t)
	admin := client(t, addr)
	defer admin.Close()
	ctx := context.Background()
	user, pw := "mptest-"+runID, "pw-"+newHex(8)
	prefix := testPrefix(t)
	err := admin.Do(ctx, admin.B().Arbitrary("ACL", "SETUSER", user, "on", ">"+pw, "~"+prefix+"*", "+@all").Build()).Error()
	if err != nil {
		t.Skipf("this Redis has no ACLs: %v", err)
	}
	defer admin.Do(ctx, admin.B().Arbitrary("ACL", "DELUSER", user).Build())
	const db = 11
	s, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + user + ":" + pw + "@" + addr + "/11", Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := admission.Request{NonceKey: admission.NonceKey("acct_u", "app_u", "ab12"), NonceTTL: time.Minute, Now: time.Now(), SignedAt: time.Now()}
	if r, err := s.Admit(ctx, req); err != nil || !r.Allowed() {
		t.Fatalf("admit as %s: %+v %v", user, r, err)
	}
	inDB, err := dialDB(addr, db)
	if err != nil {
		t.Fatal(err)
	}
	defer inDB.Close()
	key := prefix + "n:{acct_u}:app_u:ab12"
	if n, _ := inDB.Do(ctx, inDB.B().Exists().Key(key).Build()).AsInt64(); n != 1 {
		t.Fatalf("nonce key not in database %d", db)
	}
	inDB.Do(ctx, inDB.B().Del().Key(key, prefix+"e:{acct_u}").Build())

	bad, err := admission.NewRedis(admission.RedisConfig{URL: "redis://" + user + ":wrong-" + pw + "@" + addr + "/11", Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	_, err = bad.Admit(ctx, req)
	if err == nil {
		t.Fatal("admitted with a wrong password")
	}
	if strings.Contains(err.Error(), pw) {
		t.Fatalf("error repeats the password: %v", err)
	}
}

// rediss:// speaks TLS: here to a TLS terminator in front of the test Redis,
// whose self-signed certificate the URL's skip_verify accepts.
func TestRedisURLTLS(t *testing.T) {
	addr := redisAddr(t)
	lis, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{selfSigned(t)}})
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			go func() {
				up, err := net.Dial("tcp", addr)
				if err != nil {
					c.Close()
					return
				}
				go func() { _, _ = io.Copy(up, c); up.Close() }()
				_, _ = io.Copy(c, up)
				c.Close()
			}()
		}
	}()
	s := newRedisStoreURL(t, "rediss://"+lis.Addr().String()+"/0?skip_verify=true")
	defer s.Close()
	if took, err := admitWithin(s); err != nil {
		t.Fatalf("admit over TLS: %v (%v)", err, took)
	}
	// Without skip_verify the self-signed certificate is refused.
	strict := newRedisStoreURL(t, "rediss://"+lis.Addr().String()+"/0")
	defer strict.Close()
	if _, err := admitWithin(strict); err == nil {
		t.Fatal("an unverified certificate was accepted")
	}
}

func selfSigned(t *testing.T) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "redis.test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// dialDB is dial on database db.
func dialDB(addr string, db int) (rueidis.Client, error) {
	return rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{addr}, SelectDB: db, ForceSingleClient: true, DisableCache: true,
		Dialer: net.Dialer{Timeout: time.Second}})
}
