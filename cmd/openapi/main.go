// Command openapi prints the HTTP API's OpenAPI document, the same JSON
// the server serves at GET /api/v1/openapi.json. The web app generates its
// API types from it (web/scripts/gen-api.mjs).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/knowspace/knowspace/internal/httpapi/openapi"
)

func main() {
	doc, err := openapi.JSON()
	if err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, doc, "", "  "); err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
	out.WriteByte('\n')
	if _, err := out.WriteTo(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "openapi:", err)
		os.Exit(1)
	}
}
