package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mallplatform/partnerapi/internal/testenv"
)

// The returns routes through the generic call: a test order delivered, a
// return filed, read, approved with an Idempotency-Key, the dispute
// reasons listed; a refused move exits 1 with the error's code.
func TestReturnsThroughGenericCalls(t *testing.T) {
	clearEnv(t)
	env := testenv.Start(t, testenv.Options{})
	path := filepath.Join(t.TempDir(), "creds.json")
	if err := env.Creds.Save(path); err != nil {
		t.Fatal(err)
	}
	data := func(args ...string) map[string]any {
		t.Helper()
		code, out, errOut := runCLI(t, "", append([]string{"--credentials", path}, args...)...)
		if code != exitOK {
			t.Fatalf("%q: exit %d, %s %s", args, code, out, errOut)
		}
		_, body, _ := strings.Cut(out, "\n")
		var env struct {
			Data any `json:"data"`
		}
		if err := json.Unmarshal([]byte(body), &env); err != nil {
			t.Fatalf("%q: %v in %s", args, err, out)
		}
		if m, ok := env.Data.(map[string]any); ok {
			return m
		}
		return map[string]any{"list": env.Data}
	}
	order := data("POST", "/open/v1/sandbox/orders", `{"status":"READY_TO_SHIP"}`)["id"].(string)
	data("POST", "/open/v1/sandbox/orders/"+order+"/transition", `{"to":"SHIPPED"}`)
	data("POST", "/open/v1/sandbox/orders/"+order+"/transition", `{"to":"DELIVERED"}`)
	ret := data("POST", "/open/v1/sandbox/returns", `{"orderId":"`+order+`","reason":"does not fit"}`)
	id := ret["returnId"].(string)
	if got := data("GET", "/open/v1/returns/"+id); got["status"] != "REQUESTED" {
		t.Errorf("read: %v", got)
	}
	if got := data("-H", "Idempotency-Key: ret-1", "POST", "/open/v1/returns/"+id+"/approve", `{"expectedStatus":"REQUESTED"}`); got["status"] != "APPROVED" {
		t.Errorf("approve: %v", got)
	}
	if got := data("GET", "/open/v1/returns?order_id="+order); len(got["list"].([]any)) != 1 {
		t.Errorf("list: %v", got)
	}
	if got := data("GET", "/open/v1/returns/dispute-reasons"); len(got["list"].([]any)) != 6 {
		t.Errorf("reasons: %v", got)
	}
	code, out, _ := runCLI(t, "", "--credentials", path, "POST", "/open/v1/returns/"+id+"/reject", `{"reason":"late","note":"n"}`)
	if code != exitFail || !strings.Contains(out, "INVALID_TRANSITION") {
		t.Errorf("reject after approval: exit %d, %s", code, out)
	}
}
