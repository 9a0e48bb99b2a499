package fakellm

import (
	"strings"
	"testing"
)

func TestDefaultScriptReadsOverviewBeforeRawFiles(t *testing.T) {
	t.Parallel()
	_, srv := start(t, Options{})
	tools := `"tools":[{"type":"function","function":{"name":"ls","parameters":{}}},{"type":"function","function":{"name":"read","parameters":{}}}]`
	lsTurn := `{"role":"user","content":"use ls on kb://me/"},` +
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{\"uri\":\"kb://me/\"}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"{\"uri\":\"kb://users/a/\",\"items\":[` +
		`{\"uri\":\"kb://users/a/plain/\",\"name\":\"plain\"},` +
		`{\"uri\":\"kb://users/a/d/\",\"name\":\"d\",\"abstract\":\"Contracts\",\"overview_uri\":\"kb://users/a/wiki/d/.overview.md\"}]}"}`

	ev, _ := events(t, srv, `{"stream":true,`+tools+`,"messages":[`+lsTurn+`]}`)
	joined := strings.Join(ev, "")
	if !strings.Contains(joined, `"name":"read"`) || !strings.Contains(joined, `.overview.md`) || !strings.Contains(joined, `"finish_reason":"tool_calls"`) {
		t.Fatalf("after ls with an overview: %v", ev)
	}

	// Once the overview is read, the script answers from it.
	ev, _ = events(t, srv, `{"stream":true,`+tools+`,"messages":[`+lsTurn+`,`+
		`{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"read","arguments":"{\"uri\":\"kb://users/a/wiki/d/.overview.md\"}"}}]},`+
		`{"role":"tool","tool_call_id":"c2","content":"{\"uri\":\"kb://users/a/wiki/d/.overview.md\",\"offset\":0,\"text\":\"# Overview\"}"}]}`)
	if joined = strings.Join(ev, ""); strings.Contains(joined, "tool_calls") || !strings.Contains(textOf(ev), "kb://users/a/wiki/d/.overview.md#L1") {
		t.Fatalf("after the overview: %v", ev)
	}

	// A listed wiki folder's own overview wins over its children's.
	ev, _ = events(t, srv, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"use ls"},`+
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]},`+
		`{"role":"tool","tool_call_id":"c1","content":"{\"items\":[{\"uri\":\"kb://users/a/wiki/sub/\",\"name\":\"sub\",\"overview_uri\":\"kb://users/a/wiki/sub/.overview.md\"},`+
		`{\"uri\":\"kb://users/a/wiki/.overview.md\",\"name\":\".overview.md\"}]}"}]}`)
	if joined = strings.Join(ev, ""); !strings.Contains(joined, `wiki/.overview.md`) || strings.Contains(joined, `sub/.overview.md`) {
		t.Fatalf("own overview: %v", ev)
	}

	// Without an overview, or without a read tool, nothing changes.
	ev, _ = events(t, srv, `{"stream":true,"tools":[{"type":"function","function":{"name":"ls","parameters":{}}}],"messages":[`+lsTurn+`]}`)
	if joined = strings.Join(ev, ""); strings.Contains(joined, "tool_calls") {
		t.Fatalf("no read tool: %v", ev)
	}
}
