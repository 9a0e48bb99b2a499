package openapi_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/httpapi/openapi"
)

// TestDocumentIsValidOpenAPI31 loads the merged document with kin-openapi
// and validates it, examples and defaults included.
func TestDocumentIsValidOpenAPI31(t *testing.T) {
	raw, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Fatalf("servers = %+v, want one relative /", doc.Servers)
	}
	if doc.Components.Schemas["Error"] == nil {
		t.Fatal("no Error schema")
	}
}

// TestEveryErrorAnswerIsTheErrorShape: each 4xx, 5xx and default answer of
// every operation is the one Error schema.
func TestEveryErrorAnswerIsTheErrorShape(t *testing.T) {
	raw, _ := openapi.JSON()
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for code, r := range op.Responses.Map() {
				if !(code == "default" || code[0] == '4' || code[0] == '5') {
					continue
				}
				mt := r.Value.Content.Get("application/json")
				if mt == nil || mt.Schema == nil || mt.Schema.Ref != "#/components/schemas/Error" {
					t.Errorf("%s %s answers %s without the Error schema", method, path, code)
				}
			}
		}
	}
}

// TestNoLongLines keeps the YAML sources readable: no line over 2000 bytes.
func TestNoLongLines(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := doc["paths"].(map[string]any); !ok {
		t.Fatal("no paths")
	}
	names, err := filepath.Glob("*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatalf("no YAML sources: %v", err)
	}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if len(line) > 2000 {
				t.Errorf("%s:%d is %d bytes long", name, i+1, len(line))
			}
		}
	}
	if _, err := json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
}

// TestVersionFromTheBuild: a version set at build time is info.version.
func TestVersionFromTheBuild(t *testing.T) {
	old := openapi.Version
	t.Cleanup(func() { openapi.Version = old })
	openapi.Version = "1.2.3-test"
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	if v := doc["info"].(map[string]any)["version"]; v != "1.2.3-test" {
		t.Fatalf("info.version = %v", v)
	}
}

// TestErrorCodesComeFromTheRegistry: error.code lists exactly the codes
// of internal/apierr, whatever the YAML says.
func TestErrorCodesComeFromTheRegistry(t *testing.T) {
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	code := schemas["Error"].(map[string]any)["properties"].(map[string]any)["error"].(map[string]any)["properties"].(map[string]any)["code"].(map[string]any)
	enum, _ := code["enum"].([]any)
	defs := apierr.Registry()
	if len(enum) != len(defs) {
		t.Fatalf("error.code lists %d codes, the registry %d", len(enum), len(defs))
	}
	for i, d := range defs {
		if enum[i] != d.Code.String() {
			t.Errorf("error.code enum[%d] = %v, want %s", i, enum[i], d.Code)
		}
		if desc, _ := code["description"].(string); !strings.Contains(desc, "`"+d.Code.String()+"`") {
			t.Errorf("error.code's description does not explain %s", d.Code)
		}
	}
}
