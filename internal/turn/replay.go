package turn

import (
	"context"
	"encoding/json"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/store"
)

// noAnswer is the one answer for a message that cannot be followed:
// missing, another user's, outside a scoped token's folder, or written by a
// turn still running that keeps no events.
func noAnswer(messageID int64) error {
	return apierr.NotFound(apierr.CodeAnswerNotRunning, "no answer %d of yours can be followed: it does not exist, or a turn not started with detach is still writing it", messageID)
}

// storedEvents tells a stored answer as a stream: start, its reasoning,
// its tool cards, its text, then done, or the error it ended with. The
// stored message keeps no order between text and tools, nor the finish
// reason, so this is the answer, not the events as they were sent.
func storedEvents(a chat.Answer) []agent.Event {
	mode := "text_only"
	if len(a.ToolCalls) > 0 {
		mode = "native_tools"
	}
	evs := []agent.Event{{Name: agent.EventStart, Data: agent.StartData{ModelID: a.ModelID, URI: a.URI, Mode: mode,
		Limits: agent.DefaultLimits, Replay: true,
		StoredTurn: agent.StoredTurn{ConversationID: a.ConversationID, UserMessageID: a.UserMessageID, MessageID: a.ID}}}}
	if a.Reasoning != "" {
		evs = append(evs, agent.Event{Name: agent.EventReasoning, Data: agent.TextData{Text: a.Reasoning}})
	}
	for _, c := range a.ToolCalls {
		evs = append(evs, agent.Event{Name: agent.EventToolCall, Data: agent.ToolCallData{ID: c.ID, Name: c.Name, Arguments: c.Arguments}},
			agent.Event{Name: agent.EventToolResult, Data: agent.ToolResultData{ID: c.ID, Name: c.Name, OK: c.OK, Summary: c.Summary, URI: c.URI}})
	}
	if a.Content != "" {
		evs = append(evs, agent.Event{Name: agent.EventDelta, Data: agent.TextData{Text: a.Content}})
	}
	evs = append(evs, storedEnd(a))
	for i := range evs {
		evs[i].ID = i + 1
	}
	return evs
}

// storedEnd is the last event of a stored answer: done for a complete one,
// else the error it was stored with.
func storedEnd(a chat.Answer) agent.Event {
	if a.Status == store.MessageComplete {
		d := agent.DoneData{FinishReason: string(llm.FinishStop), ToolCalls: len(a.ToolCalls), Estimate: a.Estimate}
		if len(a.Usage) > 0 {
			var u llm.Usage
			if json.Unmarshal(a.Usage, &u) == nil {
				d.Usage = &u
			}
		}
		return agent.Event{Name: agent.EventDone, Data: d}
	}
	e := agent.ErrorData{Code: "stopped", Message: "the answer was stopped before it ended"}
	if a.Error != nil {
		e = agent.ErrorData{Code: a.Error.Code, Message: a.Error.Message}
	}
	return agent.Event{Name: agent.EventError, Data: e}
}

// storedFeed is a stored answer's events after id after, all at once.
type storedFeed []agent.Event

func sendAll(evs []agent.Event, after int) storedFeed {
	out := make(storedFeed, 0, len(evs))
	for _, e := range evs {
		if e.ID > after {
			out = append(out, e)
		}
	}
	return out
}

func (f storedFeed) Next(context.Context) ([]agent.Event, <-chan struct{}, bool) {
	return f, nil, true
}

func (storedFeed) Close() {}

// OnReady is never needed: the first Next returns the whole feed.
func (storedFeed) OnReady(fn func()) { fn() }
