package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	legacyrouter "github.com/getkin/kin-openapi/routers/legacy"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/httpapi/openapi"
)

// The API tests send their requests through CheckedClient, which validates
// every request and every answer against the served OpenAPI document: a
// test fails when the server and its description disagree.

type apiSpec struct {
	doc    *openapi3.T
	router routers.Router
	events map[string]*openapi3.Schema // the schema of each SSE event {event, data}, by name
	errs   *openapi3.Schema            // the Error shape
}

var loadSpec = sync.OnceValues(func() (*apiSpec, error) {
	raw, err := openapi.JSON()
	if err != nil {
		return nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, err
	}
	// Route by path alone: the relative server "/" matches no absolute
	// test URL in kin-openapi's server matching.
	byPath := *doc
	byPath.Servers = nil
	router, err := legacyrouter.NewRouter(&byPath)
	if err != nil {
		return nil, err
	}
	// The export is Markdown text; kin-openapi decodes text/plain only.
	openapi3filter.RegisterBodyDecoder("text/markdown", openapi3filter.PlainBodyDecoder)
	// The audit export is JSON lines, which no JSON decoder reads whole.
	openapi3filter.RegisterBodyDecoder("application/x-ndjson", openapi3filter.PlainBodyDecoder)
	// Each event is checked against its own branch of the StreamEvent
	// union, picked by the discriminator, so a mismatch names that branch.
	events := map[string]*openapi3.Schema{}
	for name, ref := range doc.Components.Schemas["StreamEvent"].Value.Discriminator.Mapping {
		events[name] = doc.Components.Schemas[strings.TrimPrefix(ref.Ref, "#/components/schemas/")].Value
	}
	return &apiSpec{doc: doc, router: router, events: events, errs: doc.Components.Schemas["Error"].Value}, nil
})

// anyCredential accepts a missing or wrong token: tests send those on
// purpose, and the server's 401 answer is what gets checked.
var anyCredential = openapi3filter.NoopAuthenticationFunc

func checkOptions() *openapi3filter.Options {
	o := &openapi3filter.Options{AuthenticationFunc: anyCredential, MultiError: true}
	o.WithCustomSchemaErrorFunc(shortSchemaError)
	return o
}

// shortSchemaError names where and why, without the schema dump: the
// JSON Schema validator's own detailed list when it has one.
func shortSchemaError(e *openapi3.SchemaError) string {
	msg := e.Reason
	var verr *jsonschema.ValidationError
	if errors.As(e, &verr) {
		msg = fmt.Sprintf("%#v", verr)
	}
	if len(msg) > 800 {
		msg = msg[:800] + "…"
	}
	return "at /" + strings.Join(e.JSONPointer(), "/") + ": " + msg
}

// SkipRequestCheck marks a request a test sends invalid on purpose (bad
// JSON, a wrong type, an unknown field): its answer is still checked
// against the document, the request itself is not.
func SkipRequestCheck(r *http.Request) *http.Request { return apptest.Invalid(r) }

// CheckedClient is an http.Client whose every exchange is validated.
func CheckedClient(t testing.TB) *http.Client {
	return &http.Client{Transport: CheckingTransport{T: t}}
}

// CheckingTransport validates each request and answer against the OpenAPI
// document and reports a mismatch with t.Errorf (RoundTrip may run on
// another goroutine than the test's). A request body is checked when it can
// be read again (GetBody); a streamed one is sent unread. An SSE answer is
// checked event by event as the test reads it.
type CheckingTransport struct {
	T    testing.TB
	Base http.RoundTripper // nil: http.DefaultTransport
}

func (c CheckingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := c.Base
	if base == nil {
		base = http.DefaultTransport
	}
	spec, err := loadSpec()
	if err != nil {
		c.T.Errorf("openapi: load the document: %v", err)
		return base.RoundTrip(req)
	}
	what := req.Method + " " + req.URL.Path
	route, params, findErr := findRoute(spec.router, req)
	var in *openapi3filter.RequestValidationInput
	if findErr == nil {
		in = &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: checkOptions()}
		if !apptest.IsInvalid(req) {
			c.checkRequest(what, in)
		}
	}
	res, err := base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	if findErr != nil {
		c.checkUnrouted(spec, what, req, res)
		return res, nil
	}
	c.checkResponse(spec, what, in, res)
	return res, nil
}

// findRoute routes by the escaped path when it holds an escaped slash, as
// Echo does: kin-openapi matches the decoded path, where a model id such as
// team%2Ffake would split into two segments and match no route.
func findRoute(router routers.Router, req *http.Request) (*routers.Route, map[string]string, error) {
	escaped := req.URL.EscapedPath()
	if !strings.Contains(strings.ToUpper(escaped), "%2F") {
		return router.FindRoute(req)
	}
	shadow := req.Clone(req.Context())
	shadow.URL.Path, shadow.URL.RawPath = escaped, ""
	route, params, err := router.FindRoute(shadow)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range params {
		if params[k], err = url.PathUnescape(v); err != nil {
			return nil, nil, err
		}
	}
	return route, params, nil
}

func (c CheckingTransport) checkRequest(what string, in *openapi3filter.RequestValidationInput) {
	req := in.Request
	// Validate a copy, so the body sent is the one the test built.
	check := req.Clone(req.Context())
	switch {
	case req.Body == nil || req.Body == http.NoBody:
	case req.GetBody != nil:
		body, err := req.GetBody()
		if err != nil {
			c.T.Errorf("openapi: %s: copy the body: %v", what, err)
			return
		}
		check.Body = body
	default:
		in.Options = checkOptions()
		in.Options.ExcludeRequestBody = true
		check.Body = http.NoBody
	}
	copied := *in
	copied.Request = check
	if err := openapi3filter.ValidateRequest(check.Context(), &copied); err != nil {
		// The body names the call: this runs below the test's helpers.
		var sent []byte
		if req.GetBody != nil {
			if b, err := req.GetBody(); err == nil {
				sent, _ = io.ReadAll(io.LimitReader(b, 200))
			}
		}
		c.T.Errorf("openapi: request %s?%s does not match the document (if it is invalid on purpose, mark the call: SkipRequestCheck, env.invalid()): %v\nbody: %s",
			what, req.URL.RawQuery, err, sent)
	}
}

// checkUnrouted: a path the document does not name must be one no route
// serves either, answered with the Error shape (or the web app).
func (c CheckingTransport) checkUnrouted(spec *apiSpec, what string, req *http.Request, res *http.Response) {
	if !strings.HasPrefix(req.URL.Path, "/api/") || req.Method == http.MethodHead {
		return
	}
	if res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMethodNotAllowed &&
		res.StatusCode != http.StatusUnauthorized {
		c.T.Errorf("openapi: %s is not in the document but answered %d", what, res.StatusCode)
	}
	body := c.readAll(res)
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		c.T.Errorf("openapi: %s (not in the document) answered a non-JSON error: %q", what, body)
		return
	}
	if err := spec.errs.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.SetSchemaErrorMessageCustomizer(shortSchemaError)); err != nil {
		c.T.Errorf("openapi: %s (not in the document) answered %d without the Error shape: %v", what, res.StatusCode, err)
	}
}

func (c CheckingTransport) checkResponse(spec *apiSpec, what string, in *openapi3filter.RequestValidationInput, res *http.Response) {
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: res.Header,
		Options: checkOptions()}
	out.Options.IncludeResponseStatus = true
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		out.Options.ExcludeResponseBody = true
		if err := openapi3filter.ValidateResponse(in.Request.Context(), out); err != nil {
			c.T.Errorf("openapi: answer of %s does not match the document: %v", what, err)
		}
		res.Body = &sseChecker{ReadCloser: res.Body, t: c.T, what: what, events: spec.events}
		return
	}
	body := c.readAll(res)
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(in.Request.Context(), out); err != nil {
		c.T.Errorf("openapi: answer %d of %s does not match the document: %v\nbody: %.400s", res.StatusCode, what, err, body)
	}
}

// readAll buffers the answer and gives the test the same bytes, and the
// same read error, if any.
func (c CheckingTransport) readAll(res *http.Response) []byte {
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	var rest io.Reader = bytes.NewReader(body)
	if err != nil {
		rest = io.MultiReader(rest, errReader{err})
	}
	res.Body = io.NopCloser(rest)
	return body
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// sseChecker validates each complete event of a stream as it passes to the
// reader: `event: <name>` and `data: <json>` lines up to a blank line, as
// {"event": name, "data": json} against the StreamEvent schema. A stream
// cut short leaves its last event unchecked, as a client would drop it.
type sseChecker struct {
	io.ReadCloser
	t      testing.TB
	what   string
	events map[string]*openapi3.Schema
	line   []byte
	name   string
	data   []byte
	hasDat bool
}

func (s *sseChecker) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	for _, b := range p[:n] {
		if b != '\n' {
			s.line = append(s.line, b)
			continue
		}
		s.endLine(strings.TrimSuffix(string(s.line), "\r"))
		s.line = s.line[:0]
	}
	return n, err
}

func (s *sseChecker) endLine(line string) {
	switch {
	case line == "":
		if s.name != "" || s.hasDat {
			s.checkEvent()
		}
		s.name, s.data, s.hasDat = "", nil, false
	case strings.HasPrefix(line, ":"): // a comment: the heartbeat
	case strings.HasPrefix(line, "id:"): // a detached turn's event id
	case strings.HasPrefix(line, "event:"):
		s.name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
	case strings.HasPrefix(line, "data:"):
		if s.hasDat {
			s.data = append(s.data, '\n')
		}
		s.data = append(s.data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
		s.hasDat = true
	default:
		s.t.Errorf("openapi: stream of %s has a line that is not SSE: %q", s.what, line)
	}
}

func (s *sseChecker) checkEvent() {
	var data any
	if err := json.Unmarshal(s.data, &data); err != nil {
		s.t.Errorf("openapi: stream of %s: event %q has data that is not JSON: %v", s.what, s.name, err)
		return
	}
	schema := s.events[s.name]
	if schema == nil {
		s.t.Errorf("openapi: stream of %s: event %q is not in the document", s.what, s.name)
		return
	}
	ev := map[string]any{"event": s.name, "data": data}
	if err := schema.VisitJSON(ev, openapi3.EnableJSONSchema2020(), openapi3.SetSchemaErrorMessageCustomizer(shortSchemaError)); err != nil {
		s.t.Errorf("openapi: stream of %s: event %q does not match the document: %v\ndata: %.400s", s.what, s.name, errSummary(err), s.data)
	}
}

// errSummary keeps the first lines of a oneOf failure, which lists every
// branch.
func errSummary(err error) string {
	msg := err.Error()
	var me openapi3.MultiError
	if errors.As(err, &me) && len(me) > 0 {
		msg = me[0].Error()
	}
	if lines := strings.SplitN(msg, "\n", 12); len(lines) == 12 {
		msg = strings.Join(lines[:11], "\n") + "\n…"
	}
	return fmt.Sprint(msg)
}
