// Package openapi holds the OpenAPI 3.1 document of the HTTP API. It is
// written as YAML files, one per area, that the loader merges into one
// self-contained JSON document: base.yaml is the root (info, security, the
// shared parameters and error answers), paths_*.yaml add paths and
// schemas_*.yaml add components; a new file is picked up by its name alone.
// The codes an error answer can carry come from internal/apierr's registry
// (codes.go), never from the YAML.
//
// Adding a route: register it in httpapi.New, then add its path (Echo's
// :id written {id}) and method under paths: in the paths_*.yaml of its
// area, with operationId, tags, its parameters and requestBody, and its
// answers; error answers $ref '#/components/responses/...' (all the Error
// schema) and every operation ends with default: Error. Put new body
// shapes under components: schemas: in the matching schemas_*.yaml.
// TestOpenAPICoversEveryRoute fails until the route is documented, and
// the API tests validate its traffic against what is written here.
package openapi

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

//go:embed *.yaml
var files embed.FS

// Version, when set at build time (-ldflags "-X
// github.com/knowspace/knowspace/internal/httpapi/openapi.Version=1.2.3"),
// is info.version; otherwise the module version of the build, else "dev".
var Version string

// JSON returns the merged document, built once.
var JSON = sync.OnceValues(func() ([]byte, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
})

// Load merges the YAML files into one document.
func Load() (map[string]any, error) {
	names, err := fs.Glob(files, "*.yaml")
	if err != nil {
		return nil, err
	}
	// The root first, then the others in name order, so a duplicate is
	// always reported against the same file.
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == "base.yaml") != (names[j] == "base.yaml") {
			return names[i] == "base.yaml"
		}
		return names[i] < names[j]
	})
	doc := map[string]any{}
	for _, name := range names {
		raw, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var part any
		if err := yaml.Unmarshal(raw, &part); err != nil {
			return nil, fmt.Errorf("openapi %s: %w", name, err)
		}
		m, ok := normalize(part).(map[string]any)
		if !ok {
			return nil, fmt.Errorf("openapi %s: the top level must be a mapping", name)
		}
		if err := merge(doc, m, name, nil); err != nil {
			return nil, err
		}
	}
	if err := addErrorCodes(doc); err != nil {
		return nil, err
	}
	if info, ok := doc["info"].(map[string]any); ok {
		if v := buildVersion(); v != "" {
			info["version"] = v
		}
	}
	return doc, nil
}

// merge adds src into dst; two files may add to the same mapping (paths,
// components.schemas) but never set the same key.
func merge(dst, src map[string]any, file string, at []string) error {
	for k, v := range src {
		here := append(at[:len(at):len(at)], k)
		old, exists := dst[k]
		if !exists {
			dst[k] = v
			continue
		}
		om, ok1 := old.(map[string]any)
		nm, ok2 := v.(map[string]any)
		if !ok1 || !ok2 {
			return fmt.Errorf("openapi %s: %s is defined twice", file, strings.Join(here, "."))
		}
		if err := merge(om, nm, file, here); err != nil {
			return err
		}
	}
	return nil
}

// normalize turns YAML's maps with non-string keys (a bare 200) into
// JSON objects.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalize(e)
		}
		return t
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = normalize(e)
		}
	}
	return v
}

func buildVersion() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return ""
}
