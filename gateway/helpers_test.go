package gateway_test

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mallplatform/partnerapi/gateway/admission"
	"github.com/mallplatform/partnerapi/internal/ids"
	"github.com/mallplatform/partnerapi/sdk"
)

func do(t *testing.T, req *http.Request) *sdk.Response {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return readResponse(t, resp)
}

// readResponse reads and closes resp.
func readResponse(t *testing.T, resp *http.Response) *sdk.Response {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &sdk.Response{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

func ioNop(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

// redisStore is the Redis admission store on the machine's Redis; without
// Redis the test is skipped, except in CI where that is a failure.
func redisStore(t *testing.T) admission.Store {
	addr := os.Getenv("REDIS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:6379"
	}
	s, err := admission.NewRedis(admission.RedisConfig{Addr: addr, Prefix: "mp-test:" + ids.Token(5) + ":"})
	if err == nil {
		_, err = s.Admit(t.Context(), admission.Request{Buckets: []admission.Bucket{{Key: "{probe}:x", Limit: 1, Window: 1e9}}, Now: time.Now()})
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Redis at %s is required in CI: %v", addr, err)
		}
		t.Skipf("Redis at %s not answering: %v", addr, err)
	}
	return s
}
