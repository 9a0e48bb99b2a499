package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Client embeds texts with one configured model.
type Client struct {
	cfg  Config
	http *http.Client
	// OnUsage, when set, is told the tokens of every answered request: the
	// provider's count, or an estimate from the texts' length when it
	// reports none. Set it before the first Embed.
	OnUsage func(model string, tokens int, estimated bool, cost float64)

	mu   sync.Mutex
	dims int // known once configured or answered
}

// New returns a client of cfg; a nil hc is a client with a 60 s timeout.
func New(cfg Config, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{Timeout: 60 * time.Second}
	}
	return &Client{cfg: cfg, http: hc, dims: cfg.Dimensions}
}

// ID is the configured id of the model.
func (c *Client) ID() string { return c.cfg.ID }

// BatchSize is how many texts one Embed call should carry.
func (c *Client) BatchSize() int { return c.cfg.batch() }

// Key is the vector space of the model's answers (Config.Key). Unless the
// configuration names the dimensions, the first call asks the model once.
func (c *Client) Key(ctx context.Context) (string, error) {
	c.mu.Lock()
	dims := c.dims
	c.mu.Unlock()
	if dims == 0 {
		if _, err := c.Embed(ctx, []string{"dimensions"}); err != nil {
			return "", err
		}
		c.mu.Lock()
		dims = c.dims
		c.mu.Unlock()
	}
	return c.cfg.Key(dims), nil
}

// Error is a failed embedding request: Status is the upstream HTTP status
// (0 when none came); Input tells that the model refused the texts
// themselves (400, 413, 422), so asking again with them is pointless,
// where any other fault (unreachable, overloaded, a bad key) may pass.
type Error struct {
	Status int
	Input  bool
	msg    string
}

func (e *Error) Error() string { return e.msg }

// maxAnswerBytes bounds an embeddings answer: 2,048 vectors of 4,096
// floats printed as JSON stay well below it.
const maxAnswerBytes = 256 << 20

// Embed returns one unit-length vector per text, in order.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	req := map[string]any{"model": c.cfg.model(), "input": texts, "encoding_format": "float"}
	if c.cfg.Dimensions > 0 {
		req["dimensions"] = c.cfg.Dimensions
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.cfg.BaseURL, "/")+"/embeddings", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	if k := c.cfg.apiKey(); k != "" {
		hr.Header.Set("Authorization", "Bearer "+k)
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{msg: fmt.Sprintf("embedding model %s: request failed: %v", c.cfg.ID, redact(err))}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return nil, &Error{Status: resp.StatusCode, msg: fmt.Sprintf("embedding model %s: answer cut off: %v", c.cfg.ID, err)}
	}
	if resp.StatusCode != http.StatusOK {
		input := resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusRequestEntityTooLarge || resp.StatusCode == http.StatusUnprocessableEntity
		return nil, &Error{Status: resp.StatusCode, Input: input,
			msg: fmt.Sprintf("embedding model %s answered HTTP %d: %s", c.cfg.ID, resp.StatusCode, upstreamMessage(raw))}
	}
	if len(raw) > maxAnswerBytes {
		return nil, &Error{Status: resp.StatusCode, msg: fmt.Sprintf("embedding model %s: answer larger than %d MiB", c.cfg.ID, maxAnswerBytes>>20)}
	}
	vs, prompt, err := c.decode(raw, len(texts))
	if err == nil && c.OnUsage != nil {
		tokens, estimated := prompt, false
		if tokens <= 0 {
			tokens, estimated = estimateTokens(texts), true
		}
		c.OnUsage(c.cfg.ID, tokens, estimated, float64(tokens)*c.cfg.PriceInput/1e6)
	}
	return vs, err
}

// estimateTokens counts texts as the chat models' estimate does (bytes/3),
// for a provider that reports no usage.
func estimateTokens(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return (n + 2) / 3
}

// decode reads the vectors and the prompt_tokens the answer reports (0
// when it reports none).
func (c *Client) decode(raw []byte, n int) ([][]float32, int, error) {
	var ans struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	bad := func(format string, args ...any) error {
		return &Error{Status: http.StatusOK, msg: fmt.Sprintf("embedding model %s: ", c.cfg.ID) + fmt.Sprintf(format, args...)}
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, 0, bad("answer is not an embeddings object: %v", err)
	}
	if len(ans.Data) != n {
		return nil, 0, bad("asked for %d vectors, got %d", n, len(ans.Data))
	}
	out := make([][]float32, n)
	for i, d := range ans.Data {
		at := i
		if d.Index != nil {
			at = *d.Index
		}
		if at < 0 || at >= n || out[at] != nil {
			return nil, 0, bad("answer holds a bad or repeated index %d", at)
		}
		if len(d.Embedding) == 0 {
			return nil, 0, bad("vector %d is empty", at)
		}
		if !Normalize(d.Embedding) {
			return nil, 0, bad("vector %d has no direction (all zeros, or not finite)", at)
		}
		out[at] = d.Embedding
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dims == 0 {
		c.dims = len(out[0])
	}
	for i, v := range out {
		if len(v) != c.dims {
			return nil, 0, bad("vector %d has %d dimensions, expected %d", i, len(v), c.dims)
		}
	}
	return out, ans.Usage.PromptTokens, nil
}

// upstreamMessage picks the message of an OpenAI-style error body, or the
// body's start.
func upstreamMessage(raw []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := strings.TrimSpace(string(raw))
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return msg
}

// redact drops the URL from a transport error: a base URL may carry a
// secret.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
