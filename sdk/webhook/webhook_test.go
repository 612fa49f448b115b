package webhook

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The example of the Standard Webhooks specification.
func TestSignSpecificationExample(t *testing.T) {
	got, err := Sign("msg_p5jXN8AQM9LWM0D4loKWxJek", time.Unix(1614265330, 0),
		[]byte(`{"test": 2432232314}`), []string{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"})
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; err != nil || got != want {
		t.Fatalf("Sign = %q, %v; want %q", got, err, want)
	}
}

func TestSignDuringRotationCarriesBoth(t *testing.T) {
	a, _ := NewSecret()
	b, _ := NewSecret()
	ts := time.Unix(1700000000, 0)
	both, err := Sign("evt_1", ts, []byte(`{}`), []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := Sign("evt_1", ts, []byte(`{}`), []string{a})
	sb, _ := Sign("evt_1", ts, []byte(`{}`), []string{b})
	if both != sa+" "+sb {
		t.Errorf("rotation header %q, want %q", both, sa+" "+sb)
	}
}

func TestSignRefusesMalformedSecrets(t *testing.T) {
	short := "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 23))
	long := "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 65))
	good, _ := NewSecret()
	for _, s := range [][]string{nil, {}, {"MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}, {"whsec_not base64!"}, {short}, {long}, {good, "whsec_"}} {
		_, err := Sign("evt_1", time.Now(), nil, s)
		if err == nil {
			t.Errorf("%v: accepted", s)
			continue
		}
		for _, secret := range s {
			if len(secret) > 6 && strings.Contains(err.Error(), secret[6:]) {
				t.Errorf("error %q carries the secret", err)
			}
		}
	}
}

func TestNewSecret(t *testing.T) {
	a, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewSecret()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(a, "whsec_"))
	if !strings.HasPrefix(a, "whsec_") || err != nil || len(key) < 24 || a == b {
		t.Errorf("NewSecret = %q (key %d bytes, %v), then %q", a, len(key), err, b)
	}
}

// Verify accepts what Sign produced for either secret of a rotation, and
// refuses another body, another secret, a stale timestamp and a missing
// header.
func TestVerify(t *testing.T) {
	oldSecret, _ := NewSecret()
	newSecret, _ := NewSecret()
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"id":"evt_1","type":"order.cancelled"}`)
	sig, err := Sign("evt_1", now, body, []string{newSecret, oldSecret})
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	h.Set(HeaderID, "evt_1")
	h.Set(HeaderTimestamp, "1800000000")
	h.Set(HeaderSignature, sig)
	for _, s := range []string{oldSecret, newSecret} {
		if err := Verify(s, h, body, now.Add(time.Minute), 0); err != nil {
			t.Errorf("a rotation's secret: %v", err)
		}
	}
	other, _ := NewSecret()
	if Verify(other, h, body, now, 0) == nil {
		t.Error("another secret verified")
	}
	if Verify(newSecret, h, append(body, ' '), now, 0) == nil {
		t.Error("another body verified")
	}
	if Verify(newSecret, h, body, now.Add(DefaultTolerance+time.Second), 0) == nil {
		t.Error("a stale delivery verified")
	}
	h.Del(HeaderID)
	if Verify(newSecret, h, body, now, 0) == nil {
		t.Error("a delivery without webhook-id verified")
	}
}
