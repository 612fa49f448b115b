// Command openapigen writes the OpenAPI document the gateway serves at
// GET /open/v1/openapi.json to a file (make openapi: gen/openapi/openapi.json),
// so that the document is committed and CI notices when it drifts from the
// protos.
package main

import (
	"fmt"
	"os"

	"github.com/mallplatform/partnerapi/gateway"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: openapigen FILE")
		os.Exit(2)
	}
	doc, err := gateway.OpenAPIDocument()
	if err == nil {
		err = os.WriteFile(os.Args[1], doc, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
}
