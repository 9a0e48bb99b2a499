package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
)

// apiEnv is the real stack behind the real server, as the tests of this
// package drive it: users signed in by name and, where a test wires them,
// the fake LLM, the compile service and the shutdown signal.
type apiEnv struct {
	t        testing.TB
	stack    *apptest.Stack
	srv      *httptest.Server
	echo     *echo.Echo
	fake     *apptest.Fake
	fakeURL  string // the fake's address, which no answer may show
	svc      *compile.Service
	shutdown chan struct{}     // Deps.Shutdown, where a test closes it
	tokens   map[string]string // session (or API) tokens by user name
	ids      map[string]int64  // user ids by name, where a test keeps them
	deadURL  string            // a model base URL nothing answers at
	skip     atomic.Bool       // the next request is invalid on purpose
}

// newAPIEnv serves New(d) on the stack (its store, auth and tree filled
// in), with d's limits on the http.Server as cmd/server sets them, and
// signs the users in.
func newAPIEnv(t testing.TB, stack *apptest.Stack, d Deps, users ...string) *apiEnv {
	t.Helper()
	d.Store, d.Auth, d.Tree = stack.Store, stack.Auth, stack.Tree
	e := &apiEnv{t: t, stack: stack, echo: New(d), svc: d.Compile}
	e.srv = httptest.NewUnstartedServer(nil)
	e.srv.Config = NewServer(e.echo, d.Timeouts)
	e.srv.Start()
	t.Cleanup(e.srv.Close)
	e.tokens = stack.SignIn(t, users...)
	return e
}

// invalid marks the next request as invalid on purpose: only its answer is
// checked against the OpenAPI document.
func (e *apiEnv) invalid() *apiEnv {
	e.skip.Store(true)
	return e
}

// request builds a request as user: the token of a user signed in here,
// else user itself as a raw token ("" for none). body is as
// apptest.Client.Request takes it.
func (e *apiEnv) request(t testing.TB, ctx context.Context, method, path, user string, body any) *http.Request {
	t.Helper()
	token, ok := e.tokens[user]
	if !ok {
		token = user
	}
	return apptest.Client{URL: e.srv.URL}.Request(t, ctx, method, path, token, body)
}

// send is the one way this package's tests send a request: through the
// client that checks every exchange against the OpenAPI document. The
// answer is returned unread.
func (e *apiEnv) send(t testing.TB, req *http.Request) *http.Response {
	t.Helper()
	if e.skip.Swap(false) {
		req = apptest.Invalid(req)
	}
	return apptest.Client{HTTP: CheckedClient(t)}.Open(t, req)
}

func readAll(res *http.Response) (int, []byte) {
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// do sends body JSON-encoded to /api/v1+path as user.
func (e *apiEnv) do(method, path, user string, body any) (int, []byte) {
	e.t.Helper()
	var raw any
	if body != nil {
		b, _ := json.Marshal(body)
		raw = b
	}
	req := e.request(e.t, context.Background(), method, "/api/v1"+path, user, raw)
	req.Header.Set("Content-Type", "application/json")
	return readAll(e.send(e.t, req))
}

// call sends a raw JSON body ("" for none) to path as user.
func (e *apiEnv) call(t *testing.T, user, method, path, body string) (int, []byte) {
	t.Helper()
	var raw any
	if body != "" {
		raw = body
	}
	return readAll(e.send(t, e.request(t, context.Background(), method, path, user, raw)))
}

// post sends a raw JSON body to path as user and returns the answer unread,
// for a stream.
func (e *apiEnv) post(ctx context.Context, t *testing.T, user, path, body string) *http.Response {
	t.Helper()
	req := e.request(t, ctx, http.MethodPost, path, user, body)
	return e.send(t, req)
}

// open sends body JSON-encoded to path as user, with extra headers (name,
// value, …), and returns the answer unread.
func (e *apiEnv) open(method, path, user string, body any, header ...string) *http.Response {
	e.t.Helper()
	req := e.request(e.t, context.Background(), method, path, user, body)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return e.send(e.t, req)
}

// expect is open that reads the body and requires the status.
func (e *apiEnv) expect(method, path, user string, body any, want int) []byte {
	e.t.Helper()
	status, b := readAll(e.open(method, path, user, body))
	if status != want {
		e.t.Fatalf("%s %s: want %d, got %d %s", method, path, want, status, b)
	}
	return b
}
