package openaiapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/turn"
)

// requestIDHeader is set by the server's request log before any door runs.
const requestIDHeader = "X-Request-Id"

type modelJSON struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// modelList is the models the caller may use.
func (s *server) modelList(ctx context.Context, who kb.Caller) ([]modelJSON, error) {
	out := []modelJSON{}
	if s.Models != nil {
		opts, err := s.Models.OptionsFor(ctx, who.ID)
		if err != nil {
			return nil, err
		}
		for _, m := range opts {
			out = append(out, modelJSON{ID: m.ID, Object: "model", Created: s.started, OwnedBy: "knowspace"})
		}
	}
	return out, nil
}

func (s *server) models(w http.ResponseWriter, r *http.Request, who kb.Caller) error {
	list, err := s.modelList(r.Context(), who)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": list})
	return nil
}

func (s *server) model(w http.ResponseWriter, r *http.Request, who kb.Caller) error {
	id := r.PathValue("id")
	list, err := s.modelList(r.Context(), who)
	if err != nil {
		return err
	}
	for _, m := range list {
		if m.ID == id {
			writeJSON(w, http.StatusOK, m)
			return nil
		}
	}
	_, err = s.lookup(r.Context(), who, id)
	return err
}

// completions runs one KnowAgent turn. Everything that can be refused is
// refused with an error object before the first byte.
func (s *server) completions(w http.ResponseWriter, r *http.Request, who kb.Caller) error {
	req, err := decodeRequest(r)
	if err != nil {
		return err
	}
	model, err := s.lookup(r.Context(), who, req.Model)
	if err != nil {
		return err
	}
	question, history := req.question()
	// The client sends the whole history each time; storing every call as a
	// new conversation would bury the user's own list.
	run, err := s.Turns.Start(r.Context(), turn.Request{Caller: who, RequestID: w.Header().Get(requestIDHeader), Model: model, Purpose: llm.PurposeOpenAI,
		URI: who.RootURI(), Message: question, History: history, Temporary: true})
	if err != nil {
		return err
	}
	id := "chatcmpl-" + strings.TrimPrefix(run.ID, "turn_")
	created := time.Now().Unix()
	if req.Stream {
		enc := newChunkEncoder(id, model.Meta().ID, created, &req)
		feed := run.Feed()
		// Over HTTP/1.1 the connection is taken and written as the turn
		// makes chunks: an idle stream holds no goroutine but its turn's.
		if err := agent.PushEvents(w, r, feed, s.Heartbeat, enc.encode); !errors.Is(err, agent.ErrNotPushable) {
			return nil
		}
		agent.SSEHeaders(w)
		err = agent.WriteFeed(r.Context(), w, feed, s.Shutdown, s.Heartbeat, enc.encode)
		if err != nil && r.Context().Err() == nil {
			slog.Debug("openai stream ended", "turn_id", run.ID, "err", err)
		}
		return nil
	}
	a := collect(r.Context(), run.Feed(), req.toolLines())
	switch a.ended {
	case agent.EventDone:
		writeJSON(w, http.StatusOK, completionJSON{ID: id, Object: "chat.completion", Created: created, Model: model.Meta().ID,
			Choices: []choiceJSON{{Message: messageJSON{Role: "assistant", Content: a.content.String()}, FinishReason: a.finish}},
			Usage:   openAIUsage(a.usage)})
	case agent.EventError: // the server's stop too: the turn says so
		writeJSON(w, http.StatusBadGateway, turnError(a.err.Code, a.err.Message))
	default:
		// The client left: nobody reads an answer.
		return apierr.New(499, apierr.CodeClientClosedRequest, "the client closed the request")
	}
	return nil
}

// collected is a whole completion's answer.
type collected struct {
	answer
	content strings.Builder
}

// collect reads the turn to its end; a client that leaves first ends
// the turn with it.
func collect(ctx context.Context, feed agent.Feed, toolLines bool) *collected {
	defer feed.Close()
	a := &collected{answer: answer{toolLines: toolLines}}
	for {
		evs, wait, end := feed.Next(ctx)
		for _, e := range evs {
			a.content.WriteString(a.text(e))
		}
		if end {
			return a
		}
		if len(evs) > 0 {
			continue
		}
		select {
		case <-ctx.Done():
			return a
		case <-wait:
		}
	}
}

type completionJSON struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []choiceJSON `json:"choices"`
	Usage   usageJSON    `json:"usage"`
}

type choiceJSON struct {
	Index        int         `json:"index"`
	Message      messageJSON `json:"message"`
	FinishReason string      `json:"finish_reason"`
}

type messageJSON struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
