package gateway

import (
	"fmt"
	"maps"
	"net/http"
	"strconv"

	openapiv1 "github.com/mallplatform/partnerapi/gen/mp/openapi/v1"
	uploadsv1 "github.com/mallplatform/partnerapi/gen/mp/uploads/v1"
	"github.com/mallplatform/partnerapi/internal/openapi"
	"github.com/mallplatform/partnerapi/internal/policy"
)

// OpenAPIDocument is the OpenAPI document of the routes this gateway
// serves: the bytes GET /open/v1/openapi.json answers, and what
// tools/openapigen writes to gen/openapi/openapi.json.
func OpenAPIDocument() ([]byte, error) {
	table, err := policy.Load()
	if err != nil {
		return nil, err
	}
	return openapi.Build(table)
}

// ConsoleOpenAPIDocument is the developer console's OpenAPI document: the
// bytes GET /console/v1/openapi.json answers, and what tools/openapigen
// writes to gen/openapi/console.json.
func ConsoleOpenAPIDocument() ([]byte, error) {
	table, err := policy.Load()
	if err != nil {
		return nil, err
	}
	return openapi.BuildConsole(table)
}

// ownedRoutes are the handlers of the methods the gateway answers itself
// (services declared CALLERS_NONE_GATEWAY_OWNED), by gRPC method name.
// They run after the request id, the address limiter, the route lookup and
// the strict query, in place of the signature and the call to core.
func (g *Gateway) ownedRoutes() (map[string]http.HandlerFunc, error) {
	doc, err := openapi.Build(g.table)
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	consoleDoc, err := openapi.BuildConsole(g.table)
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	owned, err := g.consentRoutes()
	if err != nil {
		return nil, err
	}
	console, err := g.consolePageRoutes()
	if err != nil {
		return nil, err
	}
	maps.Copy(owned, console)
	owned[uploadsv1.UploadFilesService_GetUploadedFile_FullMethodName] = g.serveUpload
	owned[openapiv1.OpenAPIService_GetDocument_FullMethodName] = serveDocument(doc)
	owned[openapiv1.OpenAPIService_GetConsoleDocument_FullMethodName] = serveDocument(consoleDoc)
	return owned, nil
}

// serveDocument answers an OpenAPI document.
func serveDocument(doc []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(doc)))
		// It changes only with a deployment.
		h.Set("Cache-Control", "public, max-age=300")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(doc)
	}
}
