package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// callState is per-request state shared between Stream and the HTTP doer
// below; it travels in the request's context because go-openai builds the
// *http.Request itself.
type callState struct {
	patch requestPatch

	// Written by the doer before go-openai sees the response.
	status     int
	retryAfter time.Duration

	// started is set once response headers arrived (watchdog phase).
	started atomic.Bool
	// bodyEnded is set once the body returned an error or EOF.
	bodyEnded atomic.Bool
	// sawDone is set when the SSE body passes a data: [DONE] line.
	sawDone atomic.Bool
	// activity is the UnixNano of the last bytes read from upstream; the
	// idle watchdog reads it.
	activity atomic.Int64
}

func (s *callState) touch() { s.activity.Store(time.Now().UnixNano()) }

// requestPatch is what go-openai's ChatCompletionRequest cannot express.
type requestPatch struct {
	extraBody map[string]any
	headers   map[string]string
	// toolExtras maps a call id to the extra_content sent back with it.
	toolExtras map[string]json.RawMessage
}

type callStateKey struct{}

func withCallState(ctx context.Context, s *callState) context.Context {
	return context.WithValue(ctx, callStateKey{}, s)
}

// doer is the HTTPClient handed to go-openai. It applies the request patch,
// records the status and Retry-After (go-openai's errors drop headers), and
// wraps a successful body in an sseBody that observes [DONE].
type doer struct {
	client *http.Client
}

func (d *doer) Do(req *http.Request) (*http.Response, error) {
	st, _ := req.Context().Value(callStateKey{}).(*callState)
	if st != nil {
		if err := st.patch.apply(req); err != nil {
			return nil, err
		}
	}
	resp, err := d.client.Do(req)
	if err != nil || st == nil {
		return resp, err
	}
	if resp.Request != nil {
		// The stream keeps its response, and through it the request's
		// body: kilobytes of conversation held for as long as the model
		// takes. Nothing reads them again.
		r := *resp.Request
		r.Body, r.GetBody = nil, nil
		resp.Request = &r
	}
	st.touch()
	st.started.Store(true)
	st.status = resp.StatusCode
	st.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	if resp.StatusCode == http.StatusOK {
		resp.Body = newSSEBody(resp.Body, st)
	}
	return resp, nil
}

func (p *requestPatch) apply(req *http.Request) error {
	for k, v := range p.headers {
		req.Header.Set(k, v)
	}
	if len(p.extraBody) == 0 && len(p.toolExtras) == 0 {
		return nil
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return err
	}
	for k, v := range p.extraBody {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		m[k] = b
	}
	if len(p.toolExtras) > 0 {
		if m["messages"], err = patchToolExtras(m["messages"], p.toolExtras); err != nil {
			return err
		}
	}
	if body, err = json.Marshal(m); err != nil {
		return err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return nil
}

// patchToolExtras adds extra_content to the assistant tool calls whose ids
// carry one; other fields pass through untouched.
func patchToolExtras(raw json.RawMessage, extras map[string]json.RawMessage) (json.RawMessage, error) {
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, err
	}
	for _, m := range msgs {
		if len(m["tool_calls"]) == 0 {
			continue
		}
		var calls []map[string]json.RawMessage
		if err := json.Unmarshal(m["tool_calls"], &calls); err != nil {
			return nil, err
		}
		for _, c := range calls {
			var id string
			_ = json.Unmarshal(c["id"], &id)
			if x, ok := extras[id]; ok {
				c["extra_content"] = x
			}
		}
		b, err := json.Marshal(calls)
		if err != nil {
			return nil, err
		}
		m["tool_calls"] = b
	}
	return json.Marshal(msgs)
}

// parseRetryAfter reads delay-seconds or an HTTP date; 0 when absent.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
