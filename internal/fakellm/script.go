package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Response is what the server does for one chat completion request.
type Response struct {
	// Status is the HTTP status; 0 means 200. A status of 400 or more is
	// answered with Body (or an OpenAI-shaped error object) and no stream.
	Status int
	// Header holds extra response headers, e.g. Retry-After.
	Header http.Header
	// Body is written as application/json when there are no Steps: a
	// non-streaming completion or an error object.
	Body string
	// FirstByteDelay is waited before the status line is written.
	FirstByteDelay time.Duration
	// Steps are written in order as a text/event-stream.
	Steps []Step
	// Piece, when positive, cuts every step's data into writes of at most
	// Piece bytes, each flushed on its own.
	Piece int
	// PieceDelay is waited after every flushed write.
	PieceDelay time.Duration
	// CRLF turns every "\n" of the steps into "\r\n".
	CRLF bool
	// Hold keeps the connection open after the last step until the client
	// leaves; the departure is then reported as an abort.
	Hold bool
}

// Step is one action of a streamed response.
type Step struct {
	// Delay is waited before Data is written.
	Delay time.Duration
	// Data is written verbatim (subject to Response.CRLF and Piece).
	Data string
	// Reset hijacks the connection and closes it with a TCP reset, after
	// Data (if any) was written.
	Reset bool
}

// Raw is a step writing s verbatim.
func Raw(s string) Step { return Step{Data: s} }

// Data is a step writing one SSE event "data: payload" and its blank line.
func Data(payload string) Step { return Step{Data: "data: " + payload + "\n\n"} }

// DataJSON is Data with v marshalled to JSON.
func DataJSON(v any) Step {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("fakellm: marshal step: %v", err))
	}
	return Data(string(b))
}

// Done is the step writing "data: [DONE]".
func Done() Step { return Data("[DONE]") }

// Comment is a step writing one SSE comment line, e.g. ": keep-alive".
func Comment(text string) Step { return Step{Data: ": " + text + "\n\n"} }

// KeepAlives is one step writing n ": keep-alive" comments.
func KeepAlives(n int) Step {
	return Step{Data: strings.Repeat(": keep-alive\n\n", n)}
}

// Sleep is a step that only waits.
func Sleep(d time.Duration) Step { return Step{Delay: d} }

// Reset is a step that resets the connection (hijack, linger 0, close).
func Reset() Step { return Step{Reset: true} }

// Stream is a 200 event-stream response made of steps.
func Stream(steps ...Step) Response { return Response{Steps: steps} }

// HTTPError answers status with an OpenAI-shaped error body.
func HTTPError(status int, message string) Response {
	return Response{Status: status, Body: ErrorObject(message, errorType(status), nil)}
}

// RateLimited answers 429 with the given Retry-After header value.
func RateLimited(retryAfter string) Response {
	r := HTTPError(http.StatusTooManyRequests, "Rate limit reached, retry later")
	r.Header = http.Header{"Retry-After": []string{retryAfter}}
	return r
}

// TextStream streams a plain answer: a role chunk, one chunk per piece, the
// finish reason "stop", a usage chunk and [DONE].
func TextStream(pieces ...string) Response {
	steps := []Step{Data(RoleChunk())}
	out := 0
	for _, p := range pieces {
		steps = append(steps, Data(TextChunk(p)))
		out += len(p)
	}
	steps = append(steps, Data(FinishChunk("stop")), Data(UsageChunk(10, out)), Done())
	return Stream(steps...)
}

// WithPieces returns r written in flushed pieces of n bytes.
func (r Response) WithPieces(n int) Response { r.Piece = n; return r }

// WithCRLF returns r with CRLF line endings.
func (r Response) WithCRLF() Response { r.CRLF = true; return r }

func errorType(status int) string {
	switch {
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		return "invalid_request_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}
