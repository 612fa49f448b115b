package admission_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/mallplatform/partnerapi/gateway/admission"
)

// The Redis store counts its connection attempts and its commands by
// outcome, and times the ones that reached Redis.
func TestRedisMetrics(t *testing.T) {
	addr := redisAddr(t)
	reg := prometheus.NewRegistry()
	m := admission.NewRedisMetrics(reg)
	prefix := testPrefix(t)
	s, err := admission.NewRedis(admission.RedisConfig{Addr: addr, Prefix: prefix, Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { deleteKeys(t, addr, prefix) })
	defer s.Close()
	ctx := context.Background()
	req := admission.Request{NonceKey: admission.NonceKey("acct_m", "app_m", "ab12"), NonceTTL: time.Minute, Now: time.Now()}
	if _, err := s.Admit(ctx, req); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}

	down, err := admission.NewRedis(admission.RedisConfig{Addr: "127.0.0.1:1", Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	defer down.Close()
	dctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := down.Admit(dctx, req); err == nil {
		t.Fatal("admitted without a server")
	}

	for _, c := range []struct {
		series prometheus.Collector
		want   float64
	}{
		{m.Commands("admit", "ok"), 1},
		{m.Commands("ping", "ok"), 1},
		{m.Commands("admit", "unavailable"), 1},
		{m.Commands("admit", "error"), 0},
		{m.Connects("ok"), 1},
		{m.Connects("error"), 1},
	} {
		if got := testutil.ToFloat64(c.series); got != c.want {
			t.Errorf("%s = %v, want %v", describe(c.series), got, c.want)
		}
	}
	if n := testutil.CollectAndCount(reg, "mp_gateway_redis_command_duration_seconds"); n != 2 {
		t.Errorf("%d duration series, want admit and ping", n)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func describe(c prometheus.Collector) string {
	ch := make(chan *prometheus.Desc, 1)
	c.Describe(ch)
	return (<-ch).String()
}
