package apierr

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestInternalNamesWhere: a 500's logged cause starts with what failed,
// keeps the error it wraps, and never reaches the client's message; a
// fault under it still answers as the fault.
func TestInternalNamesWhere(t *testing.T) {
	t.Parallel()
	cause := errors.New("disk on fire")
	e := Internal("list shares", cause)
	if e.Status != http.StatusInternalServerError || e.Code != CodeInternal {
		t.Fatalf("got %d %s", e.Status, e.Code)
	}
	if !errors.Is(e, cause) || !strings.HasPrefix(e.Cause.Error(), "list shares: ") {
		t.Fatalf("cause %q does not say where, or lost %v", e.Cause, cause)
	}
	if strings.Contains(e.Message, "list shares") || strings.Contains(e.Message, "fire") {
		t.Fatalf("the client's message %q tells the cause", e.Message)
	}
	if e := Internal("read user", nil); e.Cause == nil || e.Cause.Error() != "read user" {
		t.Fatalf("no cause: %v", e.Cause)
	}
	if e := Internal("save page", ErrNoSpace); e.Code != CodeInsufficientStorage || !strings.HasPrefix(e.Cause.Error(), "save page: ") {
		t.Fatalf("a full disk answers %s with cause %v", e.Code, e.Cause)
	}
}
