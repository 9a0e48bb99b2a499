package tools

import (
	"testing"
)

func TestDecodeArgsErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, tool, args string
		fragments        []string // empty: the call must decode
	}{
		{"valid", "read", `{"uri":"kb://me/a","offset":3,"limit":10}`, nil},
		{"integral float accepted", "read", `{"uri":"kb://me/a","limit":10.0}`, nil},
		{"null means not given", "read", `{"uri":"kb://me/a","offset":null,"limit":null}`, nil},
		{"exponent in range", "ls", `{"uri":"kb://me/","limit":1e1}`, nil},
		{"missing uri", "ls", `{}`, []string{`ls needs the argument "uri"`, "uri (string, required)", "limit (integer 1–100)"}},
		{"empty arguments", "status", ``, []string{`status needs the argument "uri"`}},
		{"null arguments", "status", `null`, []string{`needs the argument "uri"`}},
		{"uri null", "ls", `{"uri":null}`, []string{`needs the argument "uri"`}},
		{"missing query", "search", `{"uri":"kb://me/"}`, []string{`search needs the argument "query"`}},
		{"extra field", "ls", `{"uri":"kb://me/","path":"x"}`, []string{`ls has no argument "path"`, "it takes {uri"}},
		{"extra field on status", "status", `{"uri":"kb://me/","limit":5}`, []string{`status has no argument "limit"`}},
		{"limit as string", "read", `{"uri":"kb://me/a","limit":"10"}`, []string{`"limit" must be an integer, not a string`, `write 10, not "10"`}},
		{"uri as number", "read", `{"uri":5}`, []string{`"uri" must be a string, not a number`}},
		{"query as bool", "search", `{"uri":"kb://me/","query":true}`, []string{`"query" must be a string, not a boolean`}},
		{"offset as array", "ls", `{"uri":"kb://me/","offset":[1]}`, []string{`"offset" must be an integer, not an array`}},
		{"search offset as number", "search", `{"uri":"kb://me/","query":"x","offset":40}`, []string{`"offset" must be a string, not a number`}},
		{"limit 0", "read", `{"uri":"kb://me/a","limit":0}`, []string{`"limit" must be between 1 and 6000, not 0`}},
		{"limit 6001", "read", `{"uri":"kb://me/a","limit":6001}`, []string{`between 1 and 6000, not 6001`}},
		{"limit negative", "read", `{"uri":"kb://me/a","limit":-1}`, []string{`between 1 and 6000, not -1`}},
		{"offset negative", "read", `{"uri":"kb://me/a","offset":-5}`, []string{`"offset" must be between 0 and`}},
		{"ls limit 101", "ls", `{"uri":"kb://me/","limit":101}`, []string{`between 1 and 100, not 101`}},
		{"huge number", "ls", `{"uri":"kb://me/","offset":1e300}`, []string{`"offset" must be between 0 and`}},
		{"huge integer", "ls", `{"uri":"kb://me/","offset":123456789012345678901234567890}`, []string{`"offset" must be between 0 and`}},
		{"fraction", "read", `{"uri":"kb://me/a","limit":2.5}`, []string{`"limit" must be a whole number, not 2.5`}},
		{"empty query", "search", `{"uri":"kb://me/","query":""}`, []string{`"query" must not be empty`}},
		{"empty uri", "ls", `{"uri":""}`, []string{`"uri" must not be empty`}},
		{"long query", "search", `{"uri":"kb://me/","query":"` + string(make([]byte, 0)) + repeat("検", 201) + `"}`, []string{`"query" is 201 characters; at most 200`}},
		{"duplicate key", "ls", `{"uri":"kb://me/","uri":"kb://me/x/"}`, []string{`"uri" is given twice`}},
		{"array", "ls", `["kb://me/"]`, []string{"must be a JSON object", "not an array"}},
		{"string", "ls", `"kb://me/"`, []string{"must be a JSON object", "not a string"}},
		{"invalid JSON", "ls", `{"uri":`, []string{"not valid JSON"}},
		{"syntax error", "ls", `{"uri" "kb://me/"}`, []string{"not valid JSON (error at byte"}},
		{"trailing data", "ls", `{"uri":"kb://me/"} {}`, []string{"exactly one JSON object"}},
	}
	specs := map[string][]argSpec{}
	for name, d := range toolDefs() {
		specs[name] = d.args
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeArgs(tc.tool, specs[tc.tool], []byte(tc.args))
			if len(tc.fragments) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			wantToolErr(t, err, "invalid_arguments", tc.fragments...)
		})
	}
}

func TestDecodeArgsValues(t *testing.T) {
	t.Parallel()
	a, err := decodeArgs("read", readTool.args, []byte(`{"uri":"kb://me/a","offset":12,"limit":3e3}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.str("uri") != "kb://me/a" || a.integer("offset", -1) != 12 || a.integer("limit", -1) != 3000 {
		t.Fatalf("decoded %+v", a)
	}
	a, err = decodeArgs("read", readTool.args, []byte(`{"uri":"kb://me/a"}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.integer("limit", 77) != 77 || a.has("offset") {
		t.Fatalf("defaults: %+v", a)
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
