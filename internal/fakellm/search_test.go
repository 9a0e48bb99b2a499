package fakellm

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSearchQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ question, want string }{
		{`find "quarterly budget" in kb://users/a/docs/`, "quarterly budget"},
		{"please search for budget plans. Thanks", "budget plans"},
		{"Find zebra", "zebra"},
		{"Search kb://me/ for deadlines and list them with their files.", "deadlines"},
		{"search my notes for the red fox then stop", "red fox"},
		{"where can I find the phrase “red fox”?", "red fox"},
		{"查找「预算表」", "预算表"},
		{"搜索 预算", "预算"},
		{"research the findings", ""},
		{"use read on kb://users/a/search.md", ""},
		{"find", ""},
		{"hello", ""},
	} {
		t.Run(tc.question, func(t *testing.T) {
			if got := searchQuery(tc.question); got != tc.want {
				t.Errorf("searchQuery(%q) = %q, want %q", tc.question, got, tc.want)
			}
		})
	}
}

func TestDefaultScriptSearches(t *testing.T) {
	t.Parallel()
	_, srv := start(t, Options{})
	tools := `"tools":[{"type":"function","function":{"name":"search","parameters":{}}},{"type":"function","function":{"name":"ls","parameters":{}}}]`
	system := `{"role":"system","content":"Scope: kb://users/a/docs/"}`

	ev, _ := events(t, srv, `{"stream":true,`+tools+`,"messages":[`+system+`,{"role":"user","content":"find \"zebra stripes\" please"}]}`)
	call := toolCallOf(t, ev)
	if call.Name != "search" || call.Args["uri"] != "kb://users/a/docs/" || call.Args["query"] != "zebra stripes" {
		t.Fatalf("call %+v from %v", call, ev)
	}

	// Without the tool on offer it answers in words.
	ev, _ = events(t, srv, `{"stream":true,"messages":[{"role":"user","content":"find zebra"}]}`)
	if joined := strings.Join(ev, ""); strings.Contains(joined, "tool_calls") || textOf(ev) != "find zebra" {
		t.Fatalf("no tool: %v", ev)
	}

	result := `{"uri":"kb://users/a/docs/","query":"zebra stripes","complete":true,"hits":[` +
		`{"uri":"kb://users/a/docs/z.md","line":3,"offset":40,"snippet":"the «zebra stripes» here"},` +
		`{"uri":"kb://users/a/docs/z.md","line":9,"offset":90,"snippet":"more «zebra stripes»"},` +
		`{"uri":"kb://users/a/docs/y.txt","offset":0,"snippet":"«zebra stripes»"}]}`
	resultJSON, _ := json.Marshal(result)
	ev, _ = events(t, srv, `{"stream":true,`+tools+`,"messages":[`+system+`,{"role":"user","content":"find \"zebra stripes\""},`+
		`{"role":"assistant","tool_calls":[{"id":"call_fake_search","type":"function","function":{"name":"search","arguments":"{}"}}]},`+
		`{"role":"tool","tool_call_id":"call_fake_search","content":`+string(resultJSON)+`}]}`)
	text := textOf(ev)
	if !strings.HasPrefix(text, `I found 3 hits for "zebra stripes":`) ||
		!strings.HasSuffix(text, "Sources: kb://users/a/docs/z.md#L3, kb://users/a/docs/y.txt") ||
		strings.Contains(text, "tool_calls") {
		t.Fatalf("answer %q", text)
	}

	ev, _ = events(t, srv, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"search nothing"},`+
		`{"role":"tool","tool_call_id":"c","content":"{\"uri\":\"kb://users/a/\",\"query\":\"nothing\",\"complete\":false,\"hits\":[]}"}]}`)
	if text := textOf(ev); text != `I found no mention of "nothing" so far (the search did not cover every file).` {
		t.Fatalf("no hits: %q", text)
	}
}

type streamedCall struct {
	Name string
	Args map[string]string
}

// toolCallOf joins the streamed pieces of the first tool call.
func toolCallOf(t *testing.T, ev []string) streamedCall {
	t.Helper()
	var name, args strings.Builder
	for _, e := range ev {
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Name, Arguments string } `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal([]byte(e), &c) != nil || len(c.Choices) == 0 {
			continue
		}
		for _, tc := range c.Choices[0].Delta.ToolCalls {
			name.WriteString(tc.Function.Name)
			args.WriteString(tc.Function.Arguments)
		}
	}
	out := streamedCall{Name: name.String()}
	if err := json.Unmarshal([]byte(args.String()), &out.Args); err != nil {
		t.Fatalf("arguments %q: %v", args.String(), err)
	}
	return out
}
