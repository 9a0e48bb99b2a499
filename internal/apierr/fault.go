package apierr

import (
	"errors"
	"net/http"
	"syscall"
	"time"
)

// Faults of the machine rather than of the request. The layer that meets
// one wraps it (the store a database it cannot reach or that is full, the
// file system a disk without room), and every door answers it the same
// way through From, whatever the code in between wrapped it in.
var (
	// ErrUnavailable means a service the server needs (the database)
	// cannot be reached for now; the same request works once it is back.
	ErrUnavailable = errors.New("unavailable")
	// ErrNoSpace means a write found no room left, on a disk or in the
	// database.
	ErrNoSpace = errors.New("no space left")
)

// UnavailableRetry is the Retry-After of an unavailable answer: long
// enough not to hammer a restarting database, short enough to notice it
// is back.
const UnavailableRetry = 5 * time.Second

// Unavailable is a 503 for a service the server needs that is down for now.
func Unavailable(cause error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeUnavailable,
		Message: "the server cannot reach its database for now; try again shortly", Cause: cause, RetryAfter: UnavailableRetry}
}

// InsufficientStorage is a 507 for a write that found no room.
func InsufficientStorage(cause error) *Error {
	return &Error{Status: http.StatusInsufficientStorage, Code: CodeInsufficientStorage,
		Message: "the server has no storage space left; nothing was changed", Cause: cause}
}

// IsNoSpace tells whether err's chain holds ErrNoSpace or the system's
// own word for it (a full file system, a user's exhausted quota).
func IsNoSpace(err error) bool {
	return errors.Is(err, ErrNoSpace) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// fault is the answer to a fault in err's chain; nil when there is none.
func fault(err error) *Error {
	switch {
	case err == nil:
		return nil
	case IsNoSpace(err):
		return InsufficientStorage(err)
	case errors.Is(err, ErrUnavailable):
		return Unavailable(err)
	}
	return nil
}

// From is what a door answers for err. A fault anywhere in the chain wins
// over a client error or a plain 500 around it, since the code that
// wrapped it could not tell (an upload's "reading failed" on a full
// disk), but not over another 5xx that already names what is missing (a
// readiness probe); an error of ours stands; anything else is a 500.
func From(err error) *Error {
	e, ok := As(err)
	if ok && e.Status > http.StatusInternalServerError {
		return e
	}
	if f := fault(err); f != nil {
		return f
	}
	if ok {
		return e
	}
	return internalOf(err)
}
