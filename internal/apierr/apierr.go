// Package apierr is the one error type the HTTP layer turns into
// {"error":{"code","message"}}. Messages are safe to show to clients; causes
// are kept for logs only.
package apierr

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Error is a client-facing failure with an HTTP status, a stable machine code
// and a human message. Cause is logged, never sent.
type Error struct {
	Status  int
	Code    Code
	Message string
	Cause   error
	// RetryAfter, when set, becomes a Retry-After header (rate limits).
	RetryAfter time.Duration
	// Details are extra fields of the error object, safe for clients (the
	// existing node of an upload conflict).
	Details map[string]any
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return e.Code.String() + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// WithCause returns a copy of e that remembers cause for logging.
func (e *Error) WithCause(cause error) *Error {
	c := *e
	c.Cause = cause
	return &c
}

// WithDetail returns a copy of e with one more field in its error object.
func (e *Error) WithDetail(key string, value any) *Error {
	c := *e
	c.Details = map[string]any{key: value}
	for k, v := range e.Details {
		c.Details[k] = v
	}
	return &c
}

// New builds an Error with a formatted message.
func New(status int, code Code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// BadRequest is a 400 for input the client can fix.
func BadRequest(code Code, format string, args ...any) *Error {
	return New(http.StatusBadRequest, code, format, args...)
}

// NotFound is a 404; also used for other users' resources so existence does not leak.
func NotFound(code Code, format string, args ...any) *Error {
	return New(http.StatusNotFound, code, format, args...)
}

// Unauthorized is a 401 for missing, expired or forged credentials.
func Unauthorized(code Code, format string, args ...any) *Error {
	return New(http.StatusUnauthorized, code, format, args...)
}

// Forbidden is a 403 for an authenticated caller lacking a role.
func Forbidden(code Code, format string, args ...any) *Error {
	return New(http.StatusForbidden, code, format, args...)
}

// Conflict is a 409, e.g. a name that already exists.
func Conflict(code Code, format string, args ...any) *Error {
	return New(http.StatusConflict, code, format, args...)
}

// TooLarge is a 413 for bodies over a configured limit.
func TooLarge(code Code, format string, args ...any) *Error {
	return New(http.StatusRequestEntityTooLarge, code, format, args...)
}

// TooMany is a 429 for rate-limited callers.
func TooMany(code Code, format string, args ...any) *Error {
	return New(http.StatusTooManyRequests, code, format, args...)
}

// Internal is a 500 whose message never reveals the cause; a cause that
// is a fault (the database down, a full disk) answers as that fault. op
// names what failed ("list shares"), so the logged cause says where.
func Internal(op string, cause error) *Error {
	if cause == nil {
		cause = errors.New(op)
	} else {
		cause = fmt.Errorf("%s: %w", op, cause)
	}
	if f := fault(cause); f != nil {
		return f
	}
	return internalOf(cause)
}

// internalOf is the 500 of a cause already known to be no fault.
func internalOf(cause error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal server error", Cause: cause}
}

// As extracts an *Error from err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
