package llm

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// ErrorKind classifies provider failures so callers can decide what to show
// and whether to retry.
type ErrorKind string

// Kinds of provider failures.
const (
	KindAuth          ErrorKind = "auth"              // 401/403: missing or bad key
	KindModelNotFound ErrorKind = "model_not_found"   // 404: the upstream model name is unknown
	KindRateLimited   ErrorKind = "rate_limited"      // 429, with RetryAfter when given
	KindBadRequest    ErrorKind = "bad_request"       // other 4xx
	KindServer        ErrorKind = "server_error"      // 5xx
	KindStream        ErrorKind = "stream_error"      // an error object inside a 200 stream
	KindProtocol      ErrorKind = "protocol_error"    // invalid JSON chunk or other malformed stream
	KindIncomplete    ErrorKind = "incomplete_stream" // ended without [DONE] or without a finish reason
	KindTimeout       ErrorKind = "timeout"
	KindConnect       ErrorKind = "connect_error"
	KindCanceled      ErrorKind = "canceled"
)

// Error is a provider failure. Its message is safe to log and to show: it
// never contains the API key, the base URL or extra header values; the raw
// cause is reachable through errors.Unwrap only.
type Error struct {
	Kind    ErrorKind
	ModelID string
	// Status is the upstream HTTP status, 0 when there was none.
	Status int
	// RetryAfter is the provider's Retry-After, when it sent one.
	RetryAfter time.Duration
	// Message is a short, redacted description.
	Message string
	cause   error
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("llm %s: %s (HTTP %d): %s", e.ModelID, e.Kind, e.Status, e.Message)
	}
	return fmt.Sprintf("llm %s: %s: %s", e.ModelID, e.Kind, e.Message)
}

// Unwrap gives the underlying cause (e.g. context.Canceled). Its text may
// hold secrets such as the endpoint; do not print it.
func (e *Error) Unwrap() error { return e.cause }

// Retryable reports whether the same call may succeed later.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindRateLimited, KindServer, KindTimeout, KindConnect, KindIncomplete, KindStream:
		return true
	}
	return false
}

// Code is a stable machine code for an SSE error event or a job error.
func (e *Error) Code() string { return "llm_" + string(e.Kind) }

// APIError maps the failure to the HTTP error shape, for failures that
// happen before any stream byte was sent.
func (e *Error) APIError() *apierr.Error {
	status := http.StatusBadGateway
	switch e.Kind {
	case KindRateLimited:
		status = http.StatusTooManyRequests
	case KindTimeout:
		status = http.StatusGatewayTimeout
	case KindCanceled:
		status = 499 // client closed request; nginx's convention
	}
	return apierr.New(status, apiCodes[e.Kind], "%s", e.Message).WithCause(e)
}

// apiCodes are the registered spellings of Code, kind by kind.
var apiCodes = map[ErrorKind]apierr.Code{
	KindAuth:          apierr.CodeLLMAuth,
	KindModelNotFound: apierr.CodeLLMModelNotFound,
	KindRateLimited:   apierr.CodeLLMRateLimited,
	KindBadRequest:    apierr.CodeLLMBadRequest,
	KindServer:        apierr.CodeLLMServerError,
	KindStream:        apierr.CodeLLMStreamError,
	KindProtocol:      apierr.CodeLLMProtocolError,
	KindIncomplete:    apierr.CodeLLMIncompleteStream,
	KindTimeout:       apierr.CodeLLMTimeout,
	KindConnect:       apierr.CodeLLMConnectError,
	KindCanceled:      apierr.CodeLLMCanceled,
}

// UnknownModelError is returned for a model id that is not configured. The
// HTTP layer answers it with 400 unknown_model; there is never a fallback to
// another model.
type UnknownModelError struct {
	ID string
}

func (e *UnknownModelError) Error() string { return fmt.Sprintf("unknown model %q", e.ID) }

// APIError maps the error to 400 unknown_model.
func (e *UnknownModelError) APIError() *apierr.Error {
	return apierr.BadRequest(apierr.CodeUnknownModel, "unknown model %q", e.ID).WithDetail("model", e.ID)
}

// IsUnknownModel reports whether err is or wraps an *UnknownModelError.
func IsUnknownModel(err error) bool {
	var u *UnknownModelError
	return errors.As(err, &u)
}

// AsError extracts an *Error from err's chain.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
