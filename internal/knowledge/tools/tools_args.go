package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

// argKind is the JSON type of one tool argument.
type argKind int

const (
	argString argKind = iota
	argInteger
	argBoolean
)

func (k argKind) String() string {
	switch k {
	case argInteger:
		return "integer"
	case argBoolean:
		return "boolean"
	}
	return "string"
}

// argSpec describes one argument; the JSON Schema the model sees and the
// decoder that checks a call are both built from it, so they cannot drift.
type argSpec struct {
	Name        string
	Kind        argKind
	Required    bool
	Min, Max    int64 // integers, inclusive
	MinChars    int   // strings, in code points
	MaxChars    int
	Enum        []string // strings: the only values accepted, when set
	Description string
}

// summary spells the argument for error messages: `limit (integer 1–100)`.
func (a argSpec) summary() string {
	var b strings.Builder
	b.WriteString(a.Name + " (" + a.Kind.String())
	if a.Kind == argInteger {
		fmt.Fprintf(&b, " %d–%d", a.Min, a.Max)
	}
	if a.Required {
		b.WriteString(", required")
	}
	b.WriteString(")")
	return b.String()
}

// field is one member of a JSON object, in the order it was written.
type field struct {
	Key   string
	Value json.RawMessage
}

func invalidArgs(format string, a ...any) error {
	return apierr.BadRequest(apierr.CodeInvalidArguments, format, a...)
}

// decodeObject splits one JSON object into its members, refusing anything
// else (arrays, scalars, trailing data) and keys given twice: encoding/json
// would silently keep the last of two equal keys. Empty input and null mean
// an empty object, because some models send "" for a call without arguments.
func decodeObject(what string, raw []byte) ([]field, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxErr(what, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, invalidArgs("%s must be a JSON object such as {\"uri\": \"kb://me/\"}, not %s", what, jsonKind(raw))
	}
	var out []field
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntaxErr(what, err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, syntaxErr(what, err)
		}
		if seen[key] {
			return nil, invalidArgs("%s: %q is given twice; give each argument once", what, kb.Clip(key, 40))
		}
		seen[key] = true
		out = append(out, field{Key: key, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntaxErr(what, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalidArgs("%s must be exactly one JSON object; found more after it", what)
	}
	return out, nil
}

func syntaxErr(what string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return invalidArgs("%s are not valid JSON (error at byte %d)", what, se.Offset)
	}
	return invalidArgs("%s are not valid JSON (cut off or malformed)", what)
}

// jsonKind names the JSON type of a raw value for error messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// toolArgs holds decoded argument values; absent optional arguments are
// simply missing from the maps.
type toolArgs struct {
	strs  map[string]string
	ints  map[string]int64
	bools map[string]bool
}

func (a toolArgs) str(name string) string { return a.strs[name] }

func (a toolArgs) has(name string) bool {
	_, s := a.strs[name]
	_, i := a.ints[name]
	_, b := a.bools[name]
	return s || i || b
}

func (a toolArgs) boolean(name string) bool { return a.bools[name] }

func (a toolArgs) integer(name string, def int64) int64 {
	if v, ok := a.ints[name]; ok {
		return v
	}
	return def
}

// decodeArgs checks a call's arguments against the tool's specs: unknown
// and duplicate names, wrong JSON types, numbers out of range, strings too
// short or long, missing required arguments. null counts as "not given".
// Every message names the tool, the argument and what would be accepted.
func decodeArgs(tool string, specs []argSpec, raw []byte) (toolArgs, error) {
	fields, err := decodeObject("arguments for "+tool, raw)
	if err != nil {
		return toolArgs{}, err
	}
	return checkArgs(tool, specs, fields)
}

func checkArgs(tool string, specs []argSpec, fields []field) (toolArgs, error) {
	a := toolArgs{strs: map[string]string{}, ints: map[string]int64{}, bools: map[string]bool{}}
	for _, f := range fields {
		spec, ok := findSpec(specs, f.Key)
		if !ok {
			return toolArgs{}, invalidArgs("%s has no argument %q; it takes %s", tool, kb.Clip(f.Key, 40), specsSummary(specs))
		}
		if string(bytes.TrimSpace(f.Value)) == "null" {
			continue
		}
		switch spec.Kind {
		case argString:
			s, err := decodeString(tool, spec, f.Value)
			if err != nil {
				return toolArgs{}, err
			}
			a.strs[spec.Name] = s
		case argInteger:
			n, err := decodeInteger(tool, spec, f.Value)
			if err != nil {
				return toolArgs{}, err
			}
			a.ints[spec.Name] = n
		case argBoolean:
			raw := string(bytes.TrimSpace(f.Value))
			if raw != "true" && raw != "false" {
				return toolArgs{}, invalidArgs("%s: %q must be true or false, not %s", tool, spec.Name, jsonKind(f.Value))
			}
			a.bools[spec.Name] = raw == "true"
		}
	}
	for _, spec := range specs {
		if spec.Required && !a.has(spec.Name) {
			return toolArgs{}, invalidArgs("%s needs the argument %q; it takes %s", tool, spec.Name, specsSummary(specs))
		}
	}
	return a, nil
}

func findSpec(specs []argSpec, name string) (argSpec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return argSpec{}, false
}

func specsSummary(specs []argSpec) string {
	parts := make([]string, len(specs))
	for i, s := range specs {
		parts[i] = s.summary()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func decodeString(tool string, spec argSpec, raw json.RawMessage) (string, error) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", invalidArgs("%s: %q must be a string, not %s", tool, spec.Name, jsonKind(raw))
	}
	n := utf8.RuneCountInString(s)
	if n < spec.MinChars {
		if n == 0 {
			return "", invalidArgs("%s: %q must not be empty", tool, spec.Name)
		}
		return "", invalidArgs("%s: %q must be at least %d characters", tool, spec.Name, spec.MinChars)
	}
	if spec.MaxChars > 0 && n > spec.MaxChars {
		return "", invalidArgs("%s: %q is %d characters; at most %d are allowed", tool, spec.Name, n, spec.MaxChars)
	}
	if len(spec.Enum) > 0 && !slices.Contains(spec.Enum, s) {
		return "", invalidArgs("%s: %q must be one of %s, not %q", tool, spec.Name, strings.Join(spec.Enum, ", "), kb.Clip(s, 40))
	}
	return s, nil
}

// decodeInteger accepts JSON numbers with no fractional part (3 and 3.0,
// as JSON Schema's "integer" does) inside the spec's bounds.
func decodeInteger(tool string, spec argSpec, raw json.RawMessage) (int64, error) {
	kind := jsonKind(raw)
	if kind != "a number" {
		hint := ""
		if kind == "a string" {
			hint = " (write 10, not \"10\")"
		}
		return 0, invalidArgs("%s: %q must be an integer, not %s%s", tool, spec.Name, kind, hint)
	}
	text := string(bytes.TrimSpace(raw))
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(text, 64)
		switch {
		case ferr != nil && !errors.Is(ferr, strconv.ErrRange):
			return 0, invalidArgs("%s: %q must be an integer, not %s", tool, spec.Name, kb.Clip(text, 40))
		case math.IsInf(f, 0) || errors.Is(ferr, strconv.ErrRange) || f > float64(spec.Max) || f < float64(spec.Min):
			return 0, outOfRange(tool, spec, kb.Clip(text, 40))
		case f != math.Trunc(f):
			return 0, invalidArgs("%s: %q must be a whole number, not %s", tool, spec.Name, kb.Clip(text, 40))
		}
		n = int64(f)
	}
	if n < spec.Min || n > spec.Max {
		return 0, outOfRange(tool, spec, strconv.FormatInt(n, 10))
	}
	return n, nil
}

func outOfRange(tool string, spec argSpec, got string) error {
	return invalidArgs("%s: %q must be between %d and %d, not %s", tool, spec.Name, spec.Min, spec.Max, got)
}

// schemaOf renders the JSON Schema of a tool's arguments.
func schemaOf(specs []argSpec) json.RawMessage {
	props := map[string]any{}
	required := []string{}
	for _, s := range specs {
		p := map[string]any{"type": s.Kind.String(), "description": s.Description}
		switch s.Kind {
		case argInteger:
			p["minimum"], p["maximum"] = s.Min, s.Max
		case argString:
			if s.MinChars > 0 {
				p["minLength"] = s.MinChars
			}
			if s.MaxChars > 0 {
				p["maxLength"] = s.MaxChars
			}
			if len(s.Enum) > 0 {
				p["enum"] = s.Enum
			}
		}
		props[s.Name] = p
		if s.Required {
			required = append(required, s.Name)
		}
	}
	b, err := json.Marshal(map[string]any{
		"type": "object", "properties": props, "required": required, "additionalProperties": false,
	})
	if err != nil {
		panic(err) // static data; cannot fail
	}
	return b
}
