package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// client speaks the REST and stream API as one signed-in user.
type client struct {
	base  string
	token string
	http  *http.Client
	// uploads counts this user's uploads (their names); uploaded is the
	// last one not compiled yet.
	uploads  int
	uploaded string
}

func (c *client) do(ctx context.Context, method, path string, body any, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return c.send(req, out)
}

// send runs a prepared request and decodes a JSON answer into out.
func (c *client) send(req *http.Request, out any) error {
	method, path := req.Method, req.URL.Path
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, strings.TrimSpace(string(data)))
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

func (c *client) login(ctx context.Context, username, password string) error {
	var s struct {
		Token string `json:"token"`
	}
	if err := c.do(ctx, http.MethodPost, "/api/v1/auth/login", map[string]string{"username": username, "password": password}, &s); err != nil {
		return err
	}
	c.token = s.Token
	return nil
}

// The operations a simulated user picks from. Each checks the body, so a
// fast wrong answer counts as an error, not as a good latency.

func (c *client) ls(ctx context.Context) error {
	var page struct {
		Items []struct{ Name string } `json:"items"`
	}
	if err := c.do(ctx, http.MethodGet, "/api/v1/resources?uri="+url.QueryEscape("kb://me/notes/"), nil, &page); err != nil {
		return err
	}
	if len(page.Items) == 0 {
		return fmt.Errorf("ls: the sample folder is empty")
	}
	return nil
}

func (c *client) read(ctx context.Context) error {
	var page struct {
		Text string `json:"text"`
	}
	q := "uri=" + url.QueryEscape("kb://me/notes/research-plan.md") + "&offset=0&limit=2000"
	if err := c.do(ctx, http.MethodGet, "/api/v1/resources/content?"+q, nil, &page); err != nil {
		return err
	}
	if page.Text == "" {
		return fmt.Errorf("read: no text")
	}
	return nil
}

func (c *client) search(ctx context.Context) error {
	var res struct {
		Hits  []json.RawMessage `json:"hits"`
		Names []json.RawMessage `json:"names"`
	}
	if err := c.do(ctx, http.MethodGet, "/api/v1/search?uri="+url.QueryEscape("kb://me/")+"&q=plan", nil, &res); err != nil {
		return err
	}
	if len(res.Hits)+len(res.Names) == 0 {
		return fmt.Errorf("search: no hits for a word of the sample")
	}
	return nil
}

// stream asks the agent (the fake LLM lists a folder, then answers) and
// reads the answer to its end; it reports when the first text arrived.
func (c *client) stream(ctx context.Context) (firstText time.Duration, err error) {
	start := time.Now()
	body, _ := json.Marshal(map[string]any{"uri": "kb://me/notes/", "model_id": "fake", "message": "use ls on kb://me/notes/ please", "temporary": true})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/knowledge-agent/stream", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		return 0, fmt.Errorf("stream: %d %s", resp.StatusCode, strings.TrimSpace(string(data)))
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var event string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
			if event == "delta" && firstText == 0 {
				firstText = time.Since(start)
			}
		case strings.HasPrefix(line, "data: ") && event == "error":
			return 0, fmt.Errorf("stream: error event %s", strings.TrimPrefix(line, "data: "))
		case strings.HasPrefix(line, "data: ") && event == "done":
			if firstText == 0 {
				return 0, fmt.Errorf("stream: done without text")
			}
			return firstText, nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("stream: ended without done")
}

// upload stores a small new note (a taken name gets a new one) and returns
// its URI, for the user's next compile.
func (c *client) upload(ctx context.Context, n int) (string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile("file", fmt.Sprintf("note-%d.md", n))
	if err != nil {
		return "", err
	}
	fmt.Fprintf(part, "# Load note %d\n\nA plan written during the load run, number %d.\n", n, n)
	if err := w.Close(); err != nil {
		return "", err
	}
	q := "uri=" + url.QueryEscape("kb://me/load/") + "&on_conflict=rename"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/api/v1/resources/upload?"+q, &buf)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+c.token)
	var out struct {
		Items []struct{ URI string } `json:"items"`
	}
	if err := c.send(req, &out); err != nil {
		return "", err
	}
	if len(out.Items) != 1 {
		return "", fmt.Errorf("upload: %d items for one file", len(out.Items))
	}
	return out.Items[0].URI, nil
}

// compile queues the summary of a file with the fake model.
func (c *client) compile(ctx context.Context, uri string) error {
	var out struct {
		Jobs     []struct{ ID int64 }    `json:"jobs"`
		Rejected []struct{ Code string } `json:"rejected"`
	}
	if err := c.do(ctx, http.MethodPost, "/api/v1/knowledge-agent/compile", map[string]any{"uris": []string{uri}, "model_id": "fake"}, &out); err != nil {
		return err
	}
	if len(out.Jobs) != 1 {
		return fmt.Errorf("compile: %d jobs, rejected %v", len(out.Jobs), out.Rejected)
	}
	return nil
}
