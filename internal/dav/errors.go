package dav

import (
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/observe"
)

// golang.org/x/net/webdav turns every file-system error into a status of
// its own choosing (a PUT that fails is 405, whatever the cause). The
// request's state keeps the first domain error the file system met, and
// the response writer answers that error instead whenever webdav answers
// a failure: a read-only token gets 403, a too-large upload 413, each with
// our error body.
type reqState struct {
	mu  sync.Mutex
	err *apierr.Error
}

type stateKey struct{}

func withState(ctx context.Context) (context.Context, *reqState) {
	st := &reqState{}
	return context.WithValue(ctx, stateKey{}, st), st
}

func (s *reqState) first() *apierr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// fail records err for the answer and returns what webdav's own logic
// needs: fs.ErrNotExist for a missing node (it decides 404, 409 or 201
// from that), fs.ErrExist for a taken name.
func fail(ctx context.Context, err error) error {
	e := apierr.From(err)
	switch {
	case e.Status == http.StatusNotFound:
		return fs.ErrNotExist
	case e.Status == http.StatusConflict && e.Code == apierr.CodeAlreadyExists:
		return fs.ErrExist
	}
	if st, ok := ctx.Value(stateKey{}).(*reqState); ok {
		st.mu.Lock()
		if st.err == nil {
			st.err = e
		}
		st.mu.Unlock()
	}
	return e
}

// answerWriter passes webdav's answer through unless it is a failure and
// the file system recorded why; then it answers that error.
type answerWriter struct {
	http.ResponseWriter
	st       *reqState
	replaced bool
}

func (w *answerWriter) WriteHeader(code int) {
	if code >= 400 {
		if e := w.st.first(); e != nil {
			w.replaced = true
			writeError(w.ResponseWriter, e)
			return
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *answerWriter) Write(p []byte) (int, error) {
	if w.replaced {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

func (w *answerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// writeError answers err in the API's error shape; a 401 asks for Basic
// credentials, which every WebDAV client can send.
func writeError(w http.ResponseWriter, err error) {
	e := apierr.From(err)
	if e.Status >= 500 {
		slog.Error("webdav request failed", append([]any{"code", e.Code, "err", e.Cause}, observe.NoSpaceAttrs(e)...)...)
	}
	h := w.Header()
	if e.Status == http.StatusUnauthorized {
		h.Set("WWW-Authenticate", `Basic realm="Knowspace", charset="UTF-8"`)
	}
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(int(e.RetryAfter.Seconds()+0.999)))
	}
	for _, k := range []string{"ETag", "Last-Modified", "Content-Length", "Content-Range", "Lock-Token"} {
		h.Del(k)
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	obj := map[string]any{"code": e.Code, "message": e.Message}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": obj})
}
