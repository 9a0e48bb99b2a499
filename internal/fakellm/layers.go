package fakellm

import (
	"encoding/json"
	"strings"
)

// overviewCall follows the layers the way the system prompt asks: after a
// listing that shows a compiled folder's overview (an item's overview_uri,
// or the folder's own .overview.md), it reads that overview before any raw
// file, once per question. Nil when there is nothing to read or the model
// cannot read.
func overviewCall(chat *ChatRequest, userIdx, toolIdx int) *ToolCall {
	if !chat.HasTool("read") {
		return nil
	}
	var ls struct {
		Items []struct {
			URI         string `json:"uri"`
			Name        string `json:"name"`
			OverviewURI string `json:"overview_uri"`
		} `json:"items"`
	}
	if json.Unmarshal([]byte(chat.Messages[toolIdx].Content), &ls) != nil {
		return nil
	}
	uri := ""
	for _, it := range ls.Items {
		if it.Name == ".overview.md" {
			uri = it.URI // the listed folder's own overview comes first
			break
		}
		if uri == "" && it.OverviewURI != "" {
			uri = it.OverviewURI
		}
	}
	if uri == "" || readSince(chat, userIdx, uri) {
		return nil
	}
	args, _ := json.Marshal(map[string]string{"uri": uri})
	return &ToolCall{ID: "call_fake_overview", Type: "function", Name: "read", Arguments: string(args)}
}

// readSince tells whether the model already asked to read uri since the
// question.
func readSince(chat *ChatRequest, userIdx int, uri string) bool {
	for _, m := range chat.Messages[userIdx+1:] {
		for _, tc := range m.ToolCalls {
			if tc.Name == "read" && strings.Contains(tc.Arguments, `"`+uri+`"`) {
				return true
			}
		}
	}
	return false
}
