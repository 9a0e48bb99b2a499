package openapi

import (
	"fmt"
	"sort"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
)

// addErrorCodes writes apierr's registry into the Error schema: the enum
// of error.code and a table of what each code means, so the registry is
// the one source of both.
func addErrorCodes(doc map[string]any) error {
	code, err := lookup(doc, "components", "schemas", "Error", "properties", "error", "properties", "code")
	if err != nil {
		return err
	}
	defs := apierr.Registry()
	enum := make([]any, len(defs))
	var b strings.Builder
	b.WriteString("Stable and machine-readable; one of the registered codes (internal/apierr/codes.go):\n\n| code | status | meaning |\n|---|---|---|\n")
	for i, d := range defs {
		enum[i] = d.Code.String()
		statuses := make([]string, len(d.Statuses))
		for j, s := range d.Statuses {
			statuses[j] = fmt.Sprint(s)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", d.Code, strings.Join(statuses, ", "), d.Meaning)
	}
	old := make([]string, 0, len(apierr.Renamed))
	for o := range apierr.Renamed {
		old = append(old, o)
	}
	sort.Strings(old)
	b.WriteString("\nRenamed in this release; clients accept the old spelling for one more release:")
	for _, o := range old {
		fmt.Fprintf(&b, " `%s` → `%s`;", o, apierr.Renamed[o])
	}
	code["enum"] = enum
	code["description"] = strings.TrimSuffix(b.String(), ";") + "."
	return nil
}

// lookup walks doc by keys to a mapping.
func lookup(doc map[string]any, keys ...string) (map[string]any, error) {
	m := doc
	for i, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("openapi: %s is not a mapping", strings.Join(keys[:i+1], "."))
		}
		m = next
	}
	return m, nil
}
