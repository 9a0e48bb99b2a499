package fakellm

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// maxBody bounds a recorded request body; the fake is for tests, not uploads.
const maxBody = 16 << 20

// Options configure a Server.
type Options struct {
	// Models are listed by /v1/models and /api/tags; default ["fake-model"].
	Models []string
	// PieceDelay is the pause between chunks of DefaultScript.
	PieceDelay time.Duration
}

// Abort reports a request whose client went away before its script ended.
type Abort struct {
	Path string
	// Step is the index of the step that was running.
	Step int
	At   time.Time
}

// Server is the fake OpenAI-compatible server; see the package doc.
type Server struct {
	opts Options

	mu       sync.Mutex
	queue    []Response
	fn       func(*Request) Response
	requests []*Request
	aborts   int
	done     int
	embedded int

	aborted chan Abort
}

// New returns a Server with an empty queue.
func New(opts Options) *Server {
	if len(opts.Models) == 0 {
		opts.Models = []string{ChunkModel}
	}
	// Buffered so that reporting an abort never blocks a handler; tests
	// that care read it, others ignore it.
	return &Server{opts: opts, aborted: make(chan Abort, 1024)}
}

// Push queues responses for the next chat requests, in order.
func (s *Server) Push(rs ...Response) {
	s.mu.Lock()
	s.queue = append(s.queue, rs...)
	s.mu.Unlock()
}

// SetFunc answers chat requests with f once the queue is empty.
func (s *Server) SetFunc(f func(*Request) Response) {
	s.mu.Lock()
	s.fn = f
	s.mu.Unlock()
}

// Requests returns the requests received so far, oldest first.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.requests...)
}

// LastChat returns the parsed body of the latest chat request, or nil.
func (s *Server) LastChat() *ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.requests) - 1; i >= 0; i-- {
		if s.requests[i].Chat != nil {
			return s.requests[i].Chat
		}
	}
	return nil
}

// Aborted delivers one Abort per request whose client left early.
func (s *Server) Aborted() <-chan Abort { return s.aborted }

// AbortCount is the number of requests whose client left early.
func (s *Server) AbortCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.aborts
}

// Completed is the number of chat requests whose script ran to its end.
func (s *Server) Completed() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}

// ServeHTTP routes the OpenAI and Ollama endpoints the fake offers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	rec := &Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Received: time.Now()}
	path := strings.TrimSuffix(r.URL.Path, "/")
	isChat := strings.HasSuffix(path, "/chat/completions")
	if isChat {
		rec.Chat = parseChat(body)
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()

	switch {
	case isChat && r.Method == http.MethodPost:
		s.serve(w, r, s.next(rec))
	case strings.HasSuffix(path, "/embeddings") && r.Method == http.MethodPost:
		s.serveEmbeddings(w, body)
	case strings.HasSuffix(path, "/models") && r.Method == http.MethodGet:
		s.serveModels(w)
	case path == "/api/tags" && r.Method == http.MethodGet:
		s.serveTags(w)
	default:
		writeJSON(w, http.StatusNotFound, ErrorObject("no route "+r.URL.Path, "invalid_request_error", nil))
	}
}

func (s *Server) next(rec *Request) Response {
	s.mu.Lock()
	if len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return r
	}
	fn := s.fn
	s.mu.Unlock()
	if fn != nil {
		return fn(rec)
	}
	return DefaultScript(rec, s.opts.PieceDelay)
}

func (s *Server) serveModels(w http.ResponseWriter) {
	data := make([]map[string]any, len(s.opts.Models))
	for i, m := range s.opts.Models {
		data[i] = map[string]any{"id": m, "object": "model", "created": 1, "owned_by": "fakellm"}
	}
	writeJSON(w, http.StatusOK, marshal(map[string]any{"object": "list", "data": data}))
}

func (s *Server) serveTags(w http.ResponseWriter) {
	models := make([]map[string]any, len(s.opts.Models))
	for i, m := range s.opts.Models {
		models[i] = map[string]any{"name": m, "model": m, "size": 1,
			"details": map[string]any{"family": "fake", "parameter_size": "1B"}}
	}
	writeJSON(w, http.StatusOK, marshal(map[string]any{"models": models}))
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// serve plays one scripted response, reporting an abort when the client
// leaves before the script's end.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, resp Response) {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	if !wait(ctx, resp.FirstByteDelay) {
		s.abort(r, -1)
		return
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	if status >= 400 || len(resp.Steps) == 0 {
		body := resp.Body
		if body == "" && status >= 400 {
			body = ErrorObject(http.StatusText(status), errorType(status), nil)
		}
		writeJSON(w, status, body)
		s.finish()
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	_ = rc.Flush()
	for i, st := range resp.Steps {
		if !wait(ctx, st.Delay) {
			s.abort(r, i)
			return
		}
		if !s.write(ctx, w, rc, resp, st.Data, i == len(resp.Steps)-1) {
			s.abort(r, i)
			return
		}
		if st.Reset {
			reset(rc)
			s.finish()
			return
		}
	}
	if resp.Hold {
		<-ctx.Done()
		s.abort(r, len(resp.Steps))
		return
	}
	s.finish()
}

// write sends data in pieces with PieceDelay between them; after the last
// piece of the last step it does not wait, since a client that closes once
// it has everything has not aborted anything.
func (s *Server) write(ctx context.Context, w io.Writer, rc *http.ResponseController, resp Response, data string, lastStep bool) bool {
	if data == "" {
		return ctx.Err() == nil
	}
	if resp.CRLF {
		data = strings.ReplaceAll(data, "\n", "\r\n")
	}
	n := resp.Piece
	if n <= 0 {
		n = len(data)
	}
	for len(data) > 0 {
		if ctx.Err() != nil {
			return false
		}
		p := data[:min(n, len(data))]
		data = data[len(p):]
		if _, err := io.WriteString(w, p); err != nil {
			return false
		}
		if err := rc.Flush(); err != nil {
			return false
		}
		if len(data) == 0 && lastStep {
			break
		}
		if !wait(ctx, resp.PieceDelay) {
			return false
		}
	}
	return true
}

func (s *Server) abort(r *http.Request, step int) {
	s.mu.Lock()
	s.aborts++
	s.mu.Unlock()
	select {
	case s.aborted <- Abort{Path: r.URL.Path, Step: step, At: time.Now()}:
	default:
	}
}

func (s *Server) finish() {
	s.mu.Lock()
	s.done++
	s.mu.Unlock()
}

// reset closes the connection with a TCP RST so the client sees a reset,
// not the clean end of a chunked body.
func reset(rc *http.ResponseController) {
	_ = rc.Flush()
	conn, _, err := rc.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// wait sleeps for d unless ctx ends first; it reports whether ctx is alive.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
