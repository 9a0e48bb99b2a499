// Package openaiapi is the OpenAI-compatible front door under /v1: any
// OpenAI client, given this server as its base URL and a personal API token
// as its key, lists the chat models and runs KnowAgent turns through
// /v1/chat/completions. It decodes, calls the turn service and encodes;
// the turn itself is internal/turn's, the same as the native stream's.
package openaiapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/turn"
)

// Deps are the services the door calls.
type Deps struct {
	Auth   *auth.Service
	Models *llm.Registry // nil or empty: no model is listed and every completion is 404
	Turns  *turn.Service
	// Shutdown closes when the server stops, ending open streams first.
	Shutdown <-chan struct{}
	// Heartbeat is the idle time before a keep-alive comment; zero is
	// agent.HeartbeatInterval.
	Heartbeat time.Duration
}

// MaxBodyBytes bounds a completion request: the largest history the turn
// accepts, with room for the JSON around it.
const MaxBodyBytes = turn.MaxHistoryBytes + 4*turn.MaxMessageChars + 64<<10

// Handler serves /v1/models and /v1/chat/completions; mount it at /v1.
func Handler(d Deps) http.Handler {
	if d.Heartbeat <= 0 {
		d.Heartbeat = agent.HeartbeatInterval
	}
	s := &server{Deps: d, started: time.Now().Unix()}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", s.authed(s.models))
	mux.HandleFunc("GET /v1/models/{id...}", s.authed(s.model))
	mux.HandleFunc("POST /v1/chat/completions", s.authed(s.completions))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, apierr.NotFound(apierr.CodeNoRoute, "no endpoint %s %s; this server offers GET /v1/models and POST /v1/chat/completions", r.Method, r.URL.Path))
	})
	return mux
}

type server struct {
	Deps
	started int64 // the models' "created": a model is as old as this run of the server
}

type handlerFunc func(w http.ResponseWriter, r *http.Request, who kb.Caller) error

// authed takes the key as OpenAI clients send it (Authorization: Bearer),
// turns it into a caller in auth's one place, and answers any error in
// OpenAI's shape.
func (s *server) authed(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		header := r.Header.Get("Authorization")
		scheme, key, _ := strings.Cut(header, " ")
		if header != "" && !strings.EqualFold(scheme, "Bearer") {
			writeError(w, apierr.Unauthorized(apierr.CodeInvalidAPIKey, "send the API token as Authorization: Bearer <token>"))
			return
		}
		p, err := s.Auth.AuthenticatePrincipal(r.Context(), strings.TrimSpace(key))
		if err != nil {
			writeError(w, err)
			return
		}
		observe.NoteUser(r.Context(), p.User.ID)
		if err := h(w, r, p.Caller()); err != nil {
			writeError(w, err)
		}
	}
}

// lookup finds the requested model among those the caller may use; there
// is never a fallback to another.
func (s *server) lookup(ctx context.Context, who kb.Caller, id string) (*llm.Model, error) {
	if s.Models != nil {
		m, err := s.Models.LookupFor(ctx, who.ID, id)
		if err == nil {
			return m, nil
		}
		if !llm.IsUnknownModel(err) {
			return nil, err
		}
	}
	return nil, apierr.NotFound(apierr.CodeModelNotFound, "the model %q does not exist; GET /v1/models lists the models of this server", id).WithDetail("param", "model")
}
