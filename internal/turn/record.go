package turn

import (
	"log/slog"
	"strings"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
)

// turnRecord gathers, from the events of a turn, what its conversation
// keeps: the text and reasoning as they were sent, each tool call's card
// (never its output), usage, and how the turn ended.
type turnRecord struct {
	content, reasoning strings.Builder
	calls              []chat.ToolCall
	byID               map[string]int
	estimate           int
	// contexts counts context events: one opens each model step and one
	// follows each compaction, so steps are contexts - compactions until
	// the done event says.
	contexts, compactions, steps int
	finish                       string
	usage                        *llm.Usage
	ended                        string // agent.EventDone or agent.EventError; "" while running
	err                          *chat.Error
}

func (r *turnRecord) observe(e agent.Event) {
	switch d := e.Data.(type) {
	case agent.TextData:
		if e.Name == agent.EventReasoning {
			r.reasoning.WriteString(d.Text)
		} else {
			r.content.WriteString(d.Text)
		}
	case agent.ToolCallData:
		if r.byID == nil {
			r.byID = map[string]int{}
		}
		r.byID[d.ID] = len(r.calls)
		r.calls = append(r.calls, chat.ToolCall{ID: d.ID, Name: d.Name, Arguments: d.Arguments})
	case agent.ToolResultData:
		if i, ok := r.byID[d.ID]; ok {
			r.calls[i].OK, r.calls[i].Summary, r.calls[i].URI = d.OK, d.Summary, d.URI
		}
	case agent.ContextData:
		r.estimate, r.compactions = d.Estimate, d.Compactions
		r.contexts++
		r.steps = r.contexts - r.compactions
	case agent.DoneData:
		r.ended, r.usage, r.estimate, r.finish, r.steps = agent.EventDone, d.Usage, d.Estimate, d.FinishReason, d.Steps
	case agent.ErrorData:
		r.ended, r.err = agent.EventError, &chat.Error{Code: d.Code, Message: d.Message}
	}
}

// outcome is the turn's true ending: only a done event is complete; an
// error event is failed; a server shutdown is failed as interrupted; a turn
// that just ended (the client left or pressed Stop) is stopped.
func (r *turnRecord) outcome(shutdown bool) chat.Outcome {
	o := chat.Outcome{Content: r.content.String(), Reasoning: r.reasoning.String(), ToolCalls: r.calls, Estimate: r.estimate}
	if r.usage != nil {
		o.Usage = r.usage
	}
	switch {
	case r.ended == agent.EventDone:
		o.Status = store.MessageComplete
	case r.ended == agent.EventError:
		o.Status, o.Error = store.MessageFailed, r.err
	case shutdown:
		o.Status = store.MessageFailed
		o.Error = &chat.Error{Code: "interrupted", Message: interruptedMessage}
	default:
		o.Status = store.MessageStopped
	}
	return o
}

// finishReasons are the label values a complete turn's reason may take.
var finishReasons = map[string]bool{string(llm.FinishStop): true, string(llm.FinishToolCalls): true,
	string(llm.FinishLength): true, string(llm.FinishContentFilter): true}

// report counts the turn in the metrics and writes its one log line: ids,
// counts and usage, never the question, the answer or tool arguments.
func (r *turnRecord) report(requestID, turnID, modelID string, userID int64, o chat.Outcome) {
	outcome, reason := "complete", r.finish
	switch {
	case o.Status == store.MessageComplete:
		if !finishReasons[reason] {
			reason = "other"
		}
	case o.Status == store.MessageStopped:
		outcome, reason = "stopped", "stopped"
	case o.Error != nil && o.Error.Code == "interrupted":
		outcome, reason = "interrupted", "shutdown"
	default:
		outcome, reason = "failed", "error"
		if o.Error != nil {
			reason = o.Error.Code
		}
	}
	observe.TurnFinished(outcome, reason)
	attrs := []any{"request_id", requestID, "turn_id", turnID, "model", modelID, "user_id", userID, "outcome", outcome, "finish_reason", reason,
		"steps", r.steps, "tool_calls", len(r.calls)}
	if r.usage != nil {
		attrs = append(attrs, "input_tokens", r.usage.InputTokens, "output_tokens", r.usage.OutputTokens,
			"cached_tokens", r.usage.CachedTokens, "reasoning_tokens", r.usage.ReasoningTokens)
	}
	slog.Info("turn", attrs...)
}
