package gateway

import (
	"net/http"

	"github.com/mallplatform/partnerapi/gateway/consolepages"
	"github.com/mallplatform/partnerapi/gateway/iplimit"
	consolepagesv1 "github.com/mallplatform/partnerapi/gen/mp/consolepages/v1"
	developerv1 "github.com/mallplatform/partnerapi/gen/mp/developer/v1"
	"github.com/mallplatform/partnerapi/internal/apierr"
	"github.com/mallplatform/partnerapi/sdk"
	"github.com/mallplatform/partnerapi/services/auth"
)

// consolePageRoutes are the developer console's pages and their assets
// (gateway/consolepages), by method: a page asks core's DeveloperService
// over the gateway's own connection, with the request's console cookie and
// address in the metadata exactly as the console's JSON routes send them.
func (g *Gateway) consolePageRoutes() (map[string]http.HandlerFunc, error) {
	pages, err := consolepages.New(consolepages.Config{
		Developer: developerv1.NewDeveloperServiceClient(g.cfg.Core),
		Timeout:   g.cfg.RequestTimeout,
		Metadata: func(w http.ResponseWriter, r *http.Request) []string {
			st := &requestState{requestID: w.Header().Get(sdk.HeaderRequestID),
				clientIP: iplimit.ClientIP(r, g.cfg.TrustedProxies),
				console:  &consoleCall{session: consoleSession(r)}}
			return st.appendMetadata(nil)
		},
		Renew: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("Set-Cookie", consoleCookie(consoleSession(r), g.publicBase(r).Scheme == "https", consoleCookieMaxAge).String())
		},
		Scopes: auth.KnownScopes,
		WriteError: func(w http.ResponseWriter, _ *http.Request, code apierr.Code, message string) {
			writeError(w, w.Header().Get(sdk.HeaderRequestID), code, message)
		},
		Logger: g.log,
	})
	if err != nil {
		return nil, err
	}
	for _, m := range consolePageMethods {
		g.maint.pages[m] = pages.Maintenance
		g.pageRefusals[m] = pages.Refused
	}
	return map[string]http.HandlerFunc{
		consolepagesv1.ConsolePageService_GetIndexPage_FullMethodName:      pages.Index,
		consolepagesv1.ConsolePageService_GetSignUpPage_FullMethodName:     pages.SignUp,
		consolepagesv1.ConsolePageService_GetVerifyPage_FullMethodName:     pages.Verify,
		consolepagesv1.ConsolePageService_GetSignInPage_FullMethodName:     pages.SignIn,
		consolepagesv1.ConsolePageService_GetAppsPage_FullMethodName:       pages.Apps,
		consolepagesv1.ConsolePageService_GetAppPage_FullMethodName:        pages.App,
		consolepagesv1.ConsolePageService_GetTestShopsPage_FullMethodName:  pages.TestShops,
		consolepagesv1.ConsolePageService_GetMembersPage_FullMethodName:    pages.Members,
		consolepagesv1.ConsolePageService_GetInvitationPage_FullMethodName: pages.Invitation,
		consolepagesv1.ConsolePageService_GetProfilePage_FullMethodName:    pages.Profile,
		consolepagesv1.ConsolePageService_GetAsset_FullMethodName:          pages.Asset,
	}, nil
}

// consolePageMethods are the console's pages (not their assets): under
// maintenance each answers the console's maintenance page, and a query it
// does not take the console's error page.
var consolePageMethods = []string{
	consolepagesv1.ConsolePageService_GetIndexPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetSignUpPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetVerifyPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetSignInPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetAppsPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetAppPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetTestShopsPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetMembersPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetInvitationPage_FullMethodName,
	consolepagesv1.ConsolePageService_GetProfilePage_FullMethodName,
}
