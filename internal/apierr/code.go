package apierr

import "fmt"

// Code is the stable machine code of an error answer: clients and scripts
// branch on it. Only this package can make one (its field is unexported),
// so every code an error can carry is registered in codes.go and a code
// that is not does not compile. A named string type would not do that: an
// untyped string constant converts to it silently.
type Code struct{ name string }

// String is the code as it is written in an answer.
func (c Code) String() string { return c.name }

// MarshalText writes the code as its name wherever it is encoded (a log
// line, a JSON field).
func (c Code) MarshalText() ([]byte, error) { return []byte(c.name), nil }

// Def is one registered code: the statuses it answers with, the usual one
// first, and what it means.
type Def struct {
	Code     Code
	Statuses []int
	Meaning  string
}

var registry []Def

// def registers a code; the vars of codes.go are the registry, in the
// order they are written (package variables initialize in that order).
func def(name, meaning string, statuses ...int) Code {
	for _, d := range registry {
		if d.Code.name == name {
			panic(fmt.Sprintf("apierr: code %q registered twice", name))
		}
	}
	c := Code{name}
	registry = append(registry, Def{Code: c, Statuses: statuses, Meaning: meaning})
	return c
}

// Registry lists every code an error answer can carry, as the OpenAPI
// document lists them.
func Registry() []Def {
	out := make([]Def, len(registry))
	copy(out, registry)
	return out
}

// Renamed maps a spelling an earlier release answered to the code that
// replaced it. Clients accept both for one release; the next one drops
// this map.
var Renamed = map[string]Code{
	"exists":               CodeAlreadyExists,
	"name_taken":           CodeAlreadyExists,
	"client_closed":        CodeClientClosedRequest,
	"bad_request":          CodeInvalidRequest,
	"missing_credentials":  CodeMissingToken,
	"database_unavailable": CodeUnavailable,
}
