// Command openapigen writes the OpenAPI documents the gateway serves at
// GET /open/v1/openapi.json and GET /console/v1/openapi.json to files
// (make openapi: gen/openapi/openapi.json and gen/openapi/console.json),
// so that the documents are committed and CI notices when they drift from
// the protos.
package main

import (
	"fmt"
	"os"

	"github.com/mallplatform/partnerapi/gateway"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: openapigen OPEN_V1_FILE CONSOLE_FILE")
		os.Exit(2)
	}
	err := write(os.Args[1], gateway.OpenAPIDocument)
	if err == nil {
		err = write(os.Args[2], gateway.ConsoleOpenAPIDocument)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapigen:", err)
		os.Exit(1)
	}
}

func write(path string, build func() ([]byte, error)) error {
	doc, err := build()
	if err != nil {
		return err
	}
	return os.WriteFile(path, doc, 0o644)
}
