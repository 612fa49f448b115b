package gateway

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"google.golang.org/grpc/status"

	"github.com/mallplatform/partnerapi/internal/apierr"
)

// A core error's reason and retryable reach the body inside the error
// object, and only when set.
func TestErrorBodyCarriesFields(t *testing.T) {
	cases := []struct {
		name string
		err  *apierr.Error
		want string
	}{
		{"plain", apierr.New(apierr.NotFound, "order not found"),
			`{"success":false,"error":{"code":"NOT_FOUND","message":"order not found"},"requestId":"req_1"}`},
		{"reason and retryable",
			apierr.New(apierr.UpstreamError, "down").WithReason("ADDRESS_UNSERVICEABLE").WithRetryable(false),
			`{"success":false,"error":{"code":"UPSTREAM_ERROR","message":"down","reason":"ADDRESS_UNSERVICEABLE","retryable":false},"requestId":"req_1"}`},
		{"retryable only", apierr.New(apierr.UpstreamTimeout, "slow").WithRetryable(true),
			`{"success":false,"error":{"code":"UPSTREAM_TIMEOUT","message":"slow","retryable":true},"requestId":"req_1"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, msg, f := apierr.FromStatusFields(status.FromProto(apierr.ToStatus(c.err).Proto()))
			rec := httptest.NewRecorder()
			writeErrorFields(rec, "req_1", code, msg, f)
			if got := rec.Body.String(); got != c.want {
				t.Fatalf("body\n got %s\nwant %s", got, c.want)
			}
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatal("body is not JSON")
			}
		})
	}
}
