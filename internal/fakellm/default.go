package fakellm

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// defaultPieceRunes is how many characters each streamed chunk of the
// default script carries: small enough that the UI visibly streams.
const defaultPieceRunes = 4

var kbURI = regexp.MustCompile(`kb://[^\s"'<>)\]]*`)

// DefaultScript is the built-in behaviour described in the package doc.
func DefaultScript(rec *Request, pieceDelay time.Duration) Response {
	chat := rec.Chat
	if chat == nil {
		return HTTPError(http.StatusBadRequest, "request body is not a chat completion request")
	}
	userIdx, question := chat.LastUser()
	if strings.Contains(question, "[[429]]") {
		return RateLimited("1")
	}
	if strings.Contains(question, "[[slow]]") {
		pieceDelay = 200 * time.Millisecond
	}

	var call *ToolCall
	text, drafted := skillDraft(chat, question)
	toolAfter := -1
	for i := userIdx + 1; i < len(chat.Messages); i++ {
		if chat.Messages[i].Role == "tool" {
			toolAfter = i
		}
	}
	switch {
	case drafted:
	case toolAfter >= 0 && overviewCall(chat, userIdx, toolAfter) != nil:
		call = overviewCall(chat, userIdx, toolAfter)
	case toolAfter >= 0:
		result := string(chat.Messages[toolAfter].Content)
		if found, ok := searchAnswer(result); ok {
			text = found
		} else {
			text = "Tool result: " + firstRunes(result, 200) + "\n\nYou asked: " + question
			if cited := citations(chat, userIdx); len(cited) > 0 {
				text += "\n\nSources: " + strings.Join(cited, ", ")
			}
		}
	case wantsTool(chat, question, "ls"):
		call = scriptedCall(chat, question, "ls")
	case wantsTool(chat, question, "read"):
		call = scriptedCall(chat, question, "read")
	case chat.HasTool("search") && searchQuery(question) != "":
		call = scriptedCall(chat, question, "search")
	default:
		text = question
	}

	var steps []Step
	add := func(payload string) {
		steps = append(steps, Step{Delay: pieceDelay, Data: "data: " + payload + "\n\n"})
	}
	add(RoleChunk())
	finish := "stop"
	if call != nil {
		finish = "tool_calls"
		args := call.Arguments
		add(ToolCallStart(0, call.ID, call.Name, args[:len(args)/2]))
		add(ToolCallArgs(0, args[len(args)/2:]))
	}
	pieces := splitRunes(text, defaultPieceRunes)
	for i, p := range pieces {
		add(TextChunk(p))
		if i == 1 {
			switch {
			case strings.Contains(question, "[[truncate]]"):
				return Response{Steps: steps}
			case strings.Contains(question, "[[reset]]"):
				return Response{Steps: append(steps, Reset())}
			case strings.Contains(question, "[[error]]"):
				return Response{Steps: append(steps, Data(ErrorObject("scripted failure", "server_error", nil)))}
			case strings.Contains(question, "[[hang]]"):
				return Response{Steps: steps, Hold: true}
			}
		}
	}
	if !chat.Stream {
		var calls []ToolCall
		if call != nil {
			calls = []ToolCall{*call}
		}
		return Response{Body: Completion(text, calls, finish, usageFor(rec, text))}
	}
	add(FinishChunk(finish))
	if chat.StreamOptions != nil && chat.StreamOptions.IncludeUsage {
		u := usageFor(rec, text)
		add(UsageChunk(u.PromptTokens, u.CompletionTokens))
	}
	steps = append(steps, Done())
	return Response{Steps: steps}
}

func wantsTool(chat *ChatRequest, question, name string) bool {
	return chat.HasTool(name) && strings.Contains(strings.ToLower(question), "use "+name)
}

func scriptedCall(chat *ChatRequest, question, name string) *ToolCall {
	uri := kbURI.FindString(question)
	if uri == "" {
		for _, m := range chat.Messages {
			if m.Role == "system" {
				if uri = kbURI.FindString(string(m.Content)); uri != "" {
					break
				}
			}
		}
	}
	if uri == "" {
		uri = "kb://"
	}
	argv := map[string]string{"uri": uri}
	if name == "search" {
		argv["query"] = searchQuery(question)
	}
	args, _ := json.Marshal(argv)
	return &ToolCall{ID: "call_fake_" + name, Type: "function", Name: name, Arguments: string(args)}
}

// citations lists, once each, the kb:// URIs the tool results since the
// question came from, as a grounded answer cites them: a read from the
// start of a file points at its first line.
func citations(chat *ChatRequest, userIdx int) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range chat.Messages[userIdx+1:] {
		if m.Role != "tool" {
			continue
		}
		var res struct {
			URI    string  `json:"uri"`
			Offset *int64  `json:"offset"`
			Text   *string `json:"text"`
		}
		if json.Unmarshal([]byte(m.Content), &res) != nil || !strings.HasPrefix(res.URI, "kb://") {
			continue
		}
		uri := res.URI
		if res.Text != nil && res.Offset != nil && *res.Offset == 0 {
			uri += "#L1"
		}
		if !seen[uri] {
			seen[uri] = true
			out = append(out, uri)
		}
	}
	return out
}

// usageFor estimates tokens as bytes/4, which is all a fake needs.
func usageFor(rec *Request, out string) Usage {
	in, o := len(rec.Body)/4+1, len(out)/4+1
	return Usage{PromptTokens: in, CompletionTokens: o, TotalTokens: in + o}
}

func splitRunes(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > 0 {
		k := min(n, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
