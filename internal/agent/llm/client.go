package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
	"unicode"

	openai "github.com/sashabaranov/go-openai"

	"github.com/knowspace/knowspace/internal/observe"
)

// Default timeouts of a model call; see Timeouts.
const (
	DefaultFirstByteTimeout = 60 * time.Second
	DefaultIdleTimeout      = 90 * time.Second
	// emptyMessagesLimit replaces go-openai's 300: sseBody already drops
	// keep-alives, this only guards against a server sending nothing else.
	emptyMessagesLimit = 1 << 20
	maxErrorMessage    = 300
)

// Timeouts bound a model call. Keep-alive comments count as activity.
type Timeouts struct {
	// FirstByte is the longest wait for the response headers.
	FirstByte time.Duration
	// Idle is the longest silence once the stream has started.
	Idle time.Duration
}

var (
	errFirstByteTimeout = errors.New("no response from the provider in time")
	errIdleTimeout      = errors.New("the provider went silent")
)

// Model is a configured model ready to be called. Get one from a Registry.
type Model struct {
	cfg      ModelConfig // defaults applied; holds secrets
	profile  Profile
	client   *openai.Client
	timeouts Timeouts
	secrets  []string
	recorder UsageRecorder // nil: usage is not kept
}

// Meta is a model's non-secret description.
type Meta struct {
	ID, Name, Profile string
	ContextWindow     int
	OutputReserve     int
	MaxOutput         int
	NativeTools       bool
	Reasoning         bool
}

// Meta returns the model's safe metadata.
func (m *Model) Meta() Meta {
	c := m.cfg
	return Meta{ID: c.ID, Name: c.Name, Profile: c.Profile, ContextWindow: c.ContextWindow,
		OutputReserve: c.OutputReserve, MaxOutput: c.MaxOutput, NativeTools: c.NativeTools, Reasoning: c.Reasoning}
}

// ID is the configured model id.
func (m *Model) ID() string { return m.cfg.ID }

// InputLimit is the window minus the output and protocol reserves (SPEC §6).
func (m *Model) InputLimit() int { return m.cfg.ContextWindow - m.cfg.OutputReserve - ProtocolReserve }

// Stream starts a streaming call. Cancelling ctx (or calling Close) closes
// the upstream connection at once. Errors are *Error.
func (m *Model) Stream(ctx context.Context, req Request) (*Stream, error) {
	start := time.Now()
	creq, patch := m.buildRequest(req)
	st := &callState{patch: patch}
	st.touch()
	cctx, cancel := context.WithCancelCause(ctx)
	cctx = withCallState(cctx, st)
	wd := startWatchdog(cancel, st, m.timeouts)
	raw, err := m.client.CreateChatCompletionStream(cctx, creq)
	if err != nil {
		wd.stop()
		e := m.openError(cctx, st, err)
		cancel(context.Canceled)
		observe.ModelCall(m.cfg.ID, outcomeOf(e), time.Since(start), 0, 0)
		return nil, e
	}
	return &Stream{model: m, raw: raw, st: st, ctx: cctx, cancel: cancel, stopWD: wd.stop, open: -1, start: start,
		requestBytes: requestBytes(creq)}, nil
}

func (m *Model) buildRequest(req Request) (openai.ChatCompletionRequest, requestPatch) {
	patch := requestPatch{extraBody: m.cfg.ExtraBody, headers: m.cfg.Headers}
	msgs := make([]openai.ChatCompletionMessage, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: string(RoleSystem), Content: req.System})
	}
	for _, msg := range req.Messages {
		om := openai.ChatCompletionMessage{Role: string(msg.Role), Content: msg.Content, ToolCallID: msg.ToolCallID}
		if msg.Role == RoleAssistant && m.profile.EchoReasoning {
			om.ReasoningContent = msg.Reasoning
		}
		for _, tc := range msg.ToolCalls {
			om.ToolCalls = append(om.ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
			if m.profile.EchoToolCallExtra && len(tc.Extra) > 0 {
				if patch.toolExtras == nil {
					patch.toolExtras = map[string]json.RawMessage{}
				}
				patch.toolExtras[tc.ID] = tc.Extra
			}
		}
		msgs = append(msgs, om)
	}
	creq := openai.ChatCompletionRequest{Model: m.cfg.Model, Messages: msgs}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		creq.Tools = append(creq.Tools, openai.Tool{Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: params}})
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = m.cfg.MaxOutput
	}
	if m.profile.MaxCompletionTokens {
		creq.MaxCompletionTokens = maxTokens
	} else {
		// DeepSeek, Qwen, Ollama and most relays only know max_tokens.
		creq.MaxTokens = maxTokens //lint:ignore SA1019 deprecated for OpenAI only
	}
	if req.Temperature != nil {
		creq.Temperature = *req.Temperature
	}
	if req.ReasoningEffort != "" && m.cfg.Reasoning {
		creq.ReasoningEffort = req.ReasoningEffort
	}
	usage := m.profile.StreamUsage
	if m.cfg.StreamUsage != nil {
		usage = *m.cfg.StreamUsage
	}
	if usage {
		creq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	}
	return creq, patch
}

// newError builds an *Error; message must already be safe.
func (m *Model) newError(kind ErrorKind, status int, message string, cause error) *Error {
	if errors.Is(cause, io.EOF) {
		// Callers loop until io.EOF; a failure must never look like it.
		cause = nil
	}
	return &Error{Kind: kind, ModelID: m.cfg.ID, Status: status, Message: message, cause: cause}
}

// ctxError reports why the call's context ended, or nil if it has not.
func (m *Model) ctxError(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, errFirstByteTimeout):
		return m.newError(KindTimeout, 0, fmt.Sprintf("no response within %s", m.timeouts.FirstByte), cause)
	case errors.Is(cause, errIdleTimeout):
		return m.newError(KindTimeout, 0, fmt.Sprintf("stream silent for %s", m.timeouts.Idle), cause)
	case errors.Is(cause, context.DeadlineExceeded):
		return m.newError(KindTimeout, 0, "deadline exceeded", cause)
	}
	return m.newError(KindCanceled, 0, "call cancelled", cause)
}

// openError classifies a failure to start the stream: an HTTP error status
// or a transport failure. Upstream messages are redacted; a transport
// error's own text (which names the endpoint) is never used.
func (m *Model) openError(ctx context.Context, st *callState, err error) error {
	if cerr := m.ctxError(ctx); cerr != nil {
		return cerr
	}
	status, upstream := st.status, ""
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		upstream = apiErr.Message
	case errors.As(err, &reqErr):
		upstream = ""
		if status == 0 {
			status = reqErr.HTTPStatusCode
		}
	case status == 0 && (errors.Is(err, openai.ErrChatCompletionInvalidModel) ||
		errors.Is(err, openai.ErrReasoningModelMaxTokensDeprecated)):
		return m.newError(KindBadRequest, 0, err.Error(), err)
	}
	if status == 0 {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return m.newError(KindTimeout, 0, "connecting to the provider timed out", err)
		}
		return m.newError(KindConnect, 0, "cannot reach the provider", err)
	}
	kind, msg := classifyStatus(status)
	if upstream != "" && kind != KindAuth {
		// Auth errors are left without the upstream text: providers echo a
		// masked key there.
		msg += ": " + m.redact(upstream)
	}
	e := m.newError(kind, status, msg, err)
	if kind == KindRateLimited {
		e.RetryAfter = st.retryAfter
	}
	return e
}

func classifyStatus(status int) (ErrorKind, string) {
	switch {
	case status == 401 || status == 403:
		return KindAuth, "the provider rejected the API key"
	case status == 404:
		// The upstream name stays out: like the endpoint, it is
		// configuration that only the operator sees.
		return KindModelNotFound, "the provider does not know the configured upstream model"
	case status == 429:
		return KindRateLimited, "rate limited by the provider"
	case status >= 500:
		return KindServer, "the provider failed"
	}
	return KindBadRequest, "the provider refused the request"
}

// redact removes every secret of the model from s, drops control
// characters and bounds the length, so s can be logged and shown.
func (m *Model) redact(s string) string {
	for _, sec := range m.secrets {
		s = strings.ReplaceAll(s, sec, "[redacted]")
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxErrorMessage {
		s = string(r[:maxErrorMessage]) + "…"
	}
	return s
}

// watchdog cancels a call whose provider stays silent too long. One timer
// per call, re-armed lazily from the last activity time rather than reset on
// every read.
type watchdog struct {
	mu      sync.Mutex
	t       *time.Timer
	stopped bool
}

func startWatchdog(cancel context.CancelCauseFunc, st *callState, to Timeouts) *watchdog {
	w := &watchdog{}
	check := func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.stopped {
			return
		}
		limit, cause := to.FirstByte, errFirstByteTimeout
		if st.started.Load() {
			limit, cause = to.Idle, errIdleTimeout
		}
		if rem := limit - time.Since(time.Unix(0, st.activity.Load())); rem > 0 {
			w.t.Reset(rem)
			return
		}
		cancel(cause)
	}
	w.mu.Lock()
	w.t = time.AfterFunc(min(to.FirstByte, to.Idle), check)
	w.mu.Unlock()
	return w
}

func (w *watchdog) stop() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	return w.t.Stop()
}

// requestBytes is the size of what a call sends the model, for estimating
// its input tokens when the provider reports none.
func requestBytes(req openai.ChatCompletionRequest) int {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content) + len(m.ReasoningContent)
		for _, tc := range m.ToolCalls {
			n += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	for _, t := range req.Tools {
		if t.Function != nil {
			n += len(t.Function.Name) + len(t.Function.Description)
		}
	}
	return n
}
