package gateway

import (
	"net/http"

	"github.com/mallplatform/partnerapi/gateway/consent"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	authv1 "github.com/mallplatform/partnerapi/gen/mp/auth/v1"
	consentv1 "github.com/mallplatform/partnerapi/gen/mp/consent/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/sdk"
)

// consentRoutes are the consent page and its assets (gateway/consent), by
// method: the page asks core's AuthorizationService about the session over
// the gateway's own connection.
func (g *Gateway) consentRoutes() (map[string]http.HandlerFunc, error) {
	pages, err := consent.New(consent.Config{
		Sessions: authv1.NewAuthorizationServiceClient(g.cfg.Core),
		Timeout:  g.cfg.RequestTimeout,
		ClientIP: func(r *http.Request) string { return iplimit.ClientIP(r, g.cfg.TrustedProxies) },
		WriteError: func(w http.ResponseWriter, _ *http.Request, code apierr.Code, message string) {
			// The pipeline set this request's id on the answer already.
			writeError(w, w.Header().Get(sdk.HeaderRequestID), code, message)
		},
		Logger: g.log,
	})
	if err != nil {
		return nil, err
	}
	g.maint.pages[consentv1.ConsentPageService_GetPage_FullMethodName] = pages.Maintenance
	g.pageRefusals[consentv1.ConsentPageService_GetPage_FullMethodName] = pages.Refused
	return map[string]http.HandlerFunc{
		consentv1.ConsentPageService_GetPage_FullMethodName:  pages.Page,
		consentv1.ConsentPageService_GetAsset_FullMethodName: pages.Asset,
	}, nil
}
