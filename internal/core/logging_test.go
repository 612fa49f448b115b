package core_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mallplatform/partnerapi/internal/testenv"
)

// A partner request that fails in core is logged there with the request id
// the partner sees, the app's client id and the error code, named as on the
// gateway's access line.
func TestRPCLineNamesClientAndErrorCode(t *testing.T) {
	obs, logs := observer.New(zapcore.InfoLevel)
	env := testenv.Start(t, testenv.Options{CoreLogger: zap.New(obs)})
	r, err := env.Client(t, "full", 0).Call(context.Background(), "GET", "/open/v1/orders/ord_missing", nil, nil)
	if r == nil || r.Status != 404 {
		t.Fatalf("missing order: %v %v", r, err)
	}
	rid := r.Header.Get("X-Request-Id")
	for _, e := range logs.FilterMessage("rpc").All() {
		f := e.ContextMap()
		if f["method"] != "/mp.orders.v1.OrdersService/GetOrder" {
			continue
		}
		if f["request_id"] != rid || f["client_id"] != env.Creds.Apps["full"].ClientID || f["error_code"] != "NOT_FOUND" || f["caller"] != "gateway" {
			t.Fatalf("rpc line: %v", f)
		}
		return
	}
	t.Fatalf("no rpc line for GetOrder among %d", logs.Len())
}

// A consent page's call (unsigned: no app to name) is logged in core with
// the address the gateway attributes it to, for the sign-in audit trail.
func TestRPCLineNamesTheConsentCallersAddress(t *testing.T) {
	obs, logs := observer.New(zapcore.InfoLevel)
	env := testenv.Start(t, testenv.Options{CoreLogger: zap.New(obs)})
	resp, err := http.Post(env.BaseURL+"/open/v1/auth/seller-verify", "application/json",
		strings.NewReader(`{"session":"no-such-session","username":"nobody","password":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("seller-verify of an unknown session: %d", resp.StatusCode)
	}
	for _, e := range logs.FilterMessage("rpc").All() {
		f := e.ContextMap()
		if f["method"] != "/mp.auth.v1.AuthorizationService/VerifySeller" {
			continue
		}
		if f["client_ip"] != "127.0.0.1" || f["error_code"] != "SESSION_EXPIRED" {
			t.Fatalf("rpc line: %v", f)
		}
		return
	}
	t.Fatalf("no rpc line for VerifySeller among %d", logs.Len())
}
