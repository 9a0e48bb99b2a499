package apptest

import (
	"context"
	"strings"
	"testing"
)

// Scenario is one row of an API table: a request and what must come back.
type Scenario struct {
	Name   string
	Method string
	URL    string // the path and query on the server
	Token  string // sent as the bearer unless ""
	Body   any    // as Client.Request takes it
	// Invalid: the request breaks the API's document on purpose; only the
	// answer is checked against it.
	Invalid bool

	WantStatus int
	// WantCode is the error code the answer must carry in the one error
	// shape, with a message; "" for a success.
	WantCode         string
	WantBodyContains []string
	// Check, when set, checks what the fields above cannot say.
	Check func(t *testing.T, r Response)
}

// Test sends the scenario's request through c and checks the answer: the
// status, the error code and message, that a body is JSON, the wanted
// parts of the body, then Check.
func (s Scenario) Test(t *testing.T, c Client) {
	t.Helper()
	req := c.Request(t, context.Background(), s.Method, s.URL, s.Token, s.Body)
	if s.Invalid {
		req = Invalid(req)
	}
	r := c.Send(t, req)
	if s.WantCode != "" {
		code, msg, ok := r.APIError()
		if !ok || r.Status != s.WantStatus || code != s.WantCode || msg == "" {
			t.Errorf("%s: want %d %s, got %s", s.Name, s.WantStatus, s.WantCode, r)
			return
		}
	} else if r.Status != s.WantStatus {
		t.Errorf("%s: want %d, got %s", s.Name, s.WantStatus, r)
		return
	}
	if ct := r.Header.Get("Content-Type"); len(r.Body) > 0 && !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type %q, want JSON", s.Name, ct)
	}
	for _, part := range s.WantBodyContains {
		if !strings.Contains(string(r.Body), part) {
			t.Errorf("%s: the body lacks %q: %s", s.Name, part, r)
		}
	}
	if s.Check != nil {
		s.Check(t, r)
	}
}

// RunScenarios runs each scenario in order, as a subtest named after it:
// a later row may depend on what an earlier one did.
func RunScenarios(t *testing.T, c Client, scenarios []Scenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) { s.Test(t, c) })
	}
}
