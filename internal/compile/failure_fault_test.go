package compile

import (
	"context"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// A job that failed for the machine's sake (no space, the database gone)
// says so and stays retryable, whatever a layer between wrapped it in: a
// staged file that found no room is no bad request.
func TestMachineFaultsFailRetryably(t *testing.T) {
	t.Parallel()
	enospc := &fs.PathError{Op: "write", Path: "/data/tmp/upload-1", Err: syscall.ENOSPC}
	cases := []struct {
		name string
		err  error
		code string
	}{
		{"a file staged on a full disk", apierr.BadRequest(apierr.CodeUploadFailed, "reading a.txt failed").WithCause(enospc), "insufficient_storage"},
		{"a quota spent", fmt.Errorf("publish: %w", syscall.EDQUOT), "insufficient_storage"},
		{"a full database", apierr.Internal("commit", store.ErrNoSpace), "insufficient_storage"},
		{"the database gone", fmt.Errorf("claim: %w", store.ErrUnavailable), "unavailable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := classify(context.Background(), tc.err)
			if f.Code != tc.code || !f.Retryable {
				t.Fatalf("got %s retryable=%v, want %s retryable", f.Code, f.Retryable, tc.code)
			}
		})
	}
}
