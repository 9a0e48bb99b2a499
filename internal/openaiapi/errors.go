package openaiapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/observe"
)

// errorObject is OpenAI's error shape, which its clients parse into their
// own exceptions: {"error":{"message","type","code","param"}}.
type errorObject struct {
	Error errorFields `json:"error"`
}

type errorFields struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Code    string  `json:"code"`
	Param   *string `json:"param"`
}

// openAIError is the one place our error becomes OpenAI's; its cause goes
// to the log, never to the client.
func openAIError(err error) (int, errorObject) {
	e := apierr.From(err)
	if e.Status >= 500 {
		slog.Error("openai request failed", append([]any{"code", e.Code, "err", err}, observe.NoSpaceAttrs(err)...)...)
	}
	code := e.Code.String()
	switch e.Code {
	case apierr.CodeMissingToken, apierr.CodeInvalidToken, apierr.CodeTokenExpired:
		// OpenAI's clients and their users know a bad key by this code.
		code = apierr.CodeInvalidAPIKey.String()
	case apierr.CodeTooManyStreams:
		// OpenAI's own code, which its clients retry on; it is no error
		// code of this API's other doors.
		code = "rate_limit_exceeded"
	}
	out := errorObject{Error: errorFields{Message: e.Message, Type: errorType(e.Status), Code: code}}
	if p, ok := e.Details["param"].(string); ok {
		out.Error.Param = &p
	}
	return e.Status, out
}

func errorType(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status == http.StatusForbidden:
		return "permission_error"
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

// writeError answers a refused request before any byte of it was written.
func writeError(w http.ResponseWriter, err error) {
	status, body := openAIError(err)
	if e, ok := apierr.As(err); ok && e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999)))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// turnError is a failed turn's error object, sent in place of the next
// chunk of a stream or as the answer of a completion.
func turnError(code, message string) errorObject {
	return errorObject{Error: errorFields{Message: message, Type: "server_error", Code: code}}
}
