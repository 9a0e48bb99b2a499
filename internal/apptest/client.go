package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Response is one finished HTTP exchange.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// APIError decodes the one error shape, {"error":{"code","message"}}; ok
// is false when the body does not have it.
func (r Response) APIError() (code, message string, ok bool) {
	var e errorBody
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" {
		return "", "", false
	}
	return e.Error.Code, e.Error.Message, true
}

// Decode unmarshals the body into v, failing the test if it cannot.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r, err)
	}
}

func (r Response) String() string {
	b := r.Body
	if len(b) > 300 {
		b = b[:300]
	}
	return fmt.Sprintf("%d %s", r.Status, b)
}

// Client sends a test's requests to one server.
type Client struct {
	URL  string       // the server's root
	HTTP *http.Client // nil: http.DefaultClient
}

// Request builds a request for path on the server. body may be nil, a
// string or []byte (sent as is, as JSON), an io.Reader, or any other value
// (JSON-encoded); a token is sent as the bearer.
func (c Client) Request(t testing.TB, ctx context.Context, method, path, token string, body any) *http.Request {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	case io.Reader:
		rd = b
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode body: %v", err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, rd)
	if err != nil {
		t.Fatalf("new request %s %s: %v", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

// Open sends req and returns the answer unread, for a stream.
func (c Client) Open(t testing.TB, req *http.Request) *http.Response {
	t.Helper()
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	return res
}

// Send sends req and reads the whole answer.
func (c Client) Send(t testing.TB, req *http.Request) Response {
	t.Helper()
	res := c.Open(t, req)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read %s %s: %v", req.Method, req.URL, err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// Do sends one request (see Request) and reads the whole answer.
func (c Client) Do(t testing.TB, method, path, token string, body any) Response {
	t.Helper()
	return c.Send(t, c.Request(t, context.Background(), method, path, token, body))
}

type invalidKey struct{}

// Invalid marks a request a test sends invalid on purpose (bad JSON, a
// wrong type, an unknown field): a transport that checks exchanges against
// the API's document checks its answer, not the request.
func Invalid(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), invalidKey{}, true))
}

// IsInvalid says whether Invalid marked the request.
func IsInvalid(r *http.Request) bool {
	v, _ := r.Context().Value(invalidKey{}).(bool)
	return v
}
