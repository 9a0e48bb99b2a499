package httpapi

import (
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// Timeouts bound how long a client may hold a connection without making
// progress (config limits.*). Zero values take the defaults below.
type Timeouts struct {
	ReadHeader time.Duration // request line and headers, from the first byte
	Idle       time.Duration // a keep-alive connection between requests
	// BodyIdle is how long one read of a request body may wait for the next
	// bytes: a slow upload that keeps moving is never cut, a stalled one is.
	BodyIdle time.Duration
	// Body caps the whole read of a non-upload body (JSON, commands), which
	// is small, so a client trickling a byte per BodyIdle is cut too.
	Body time.Duration
	// Write is how long one write of a response body may wait for the
	// client to take bytes: a slow download that keeps moving is never
	// cut, a client that stopped reading is.
	Write time.Duration
}

// Default timeouts.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultBodyIdleTimeout   = 30 * time.Second
	DefaultBodyTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
)

func (t Timeouts) withDefaults() Timeouts {
	for _, f := range []struct {
		v *time.Duration
		d time.Duration
	}{{&t.ReadHeader, DefaultReadHeaderTimeout}, {&t.Idle, DefaultIdleTimeout},
		{&t.BodyIdle, DefaultBodyIdleTimeout}, {&t.Body, DefaultBodyTimeout}, {&t.Write, DefaultWriteTimeout}} {
		if *f.v <= 0 {
			*f.v = f.d
		}
	}
	return t
}

// NewServer is the http.Server for h with the connection timeouts; h should
// come from New with the same Timeouts, which applies the body deadlines.
// There is deliberately no ReadTimeout or WriteTimeout: a whole-request
// bound would cut a slow 100 MB upload and every SSE stream.
func NewServer(h http.Handler, t Timeouts) *http.Server {
	t = t.withDefaults()
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, IdleTimeout: t.Idle}
}

// bodyDeadlines puts a read deadline on the connection while the handler
// reads the request body; net/http has none after the headers.
func bodyDeadlines(t Timeouts) echo.MiddlewareFunc {
	t = t.withDefaults()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
				// No body: net/http already watches the connection for a
				// close, and a deadline here would cancel a long handler.
				return next(c)
			}
			b := &deadlineBody{rc: http.NewResponseController(c.Response()), body: r.Body,
				idle: t.BodyIdle, end: time.Now().Add(t.Body)}
			// Set before the first read too, so a body the handler never reads
			// cannot stall the server's drain of it after the answer.
			b.arm()
			r.Body = b
			return next(c)
		}
	}
}

// streamingBody lifts the whole-body cap for the upload route: only the idle
// deadline stays, renewed by every read that brings bytes.
func streamingBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if b, ok := c.Request().Body.(*deadlineBody); ok {
			b.end = time.Time{}
			b.arm()
		}
		return next(c)
	}
}

// deadlineBody renews the connection's read deadline before each read and
// clears it at the end of the body. The clearing matters: after the body
// net/http reads the connection in the background to notice a client that
// hangs up, and a deadline firing there would cancel the request (an SSE
// stream runs long after its small JSON body was read).
type deadlineBody struct {
	rc   *http.ResponseController
	body io.ReadCloser
	idle time.Duration
	end  time.Time // zero: no whole-body cap
	done bool
}

func (b *deadlineBody) arm() {
	d := time.Now().Add(b.idle)
	if !b.end.IsZero() && b.end.Before(d) {
		d = b.end
	}
	_ = b.rc.SetReadDeadline(d)
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	if b.done {
		return b.body.Read(p)
	}
	b.arm()
	n, err := b.body.Read(p)
	if err == io.EOF {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

func (b *deadlineBody) Close() error { return b.body.Close() }

// writeDeadlines bounds each write of a response body by t.Write, and the
// flush after the handler returns, so a client that stops reading a
// download (raw, WebDAV, exports, page images) loses its connection instead
// of holding a descriptor and a goroutine. Between writes there is no
// deadline: an idle stream, or a handler still working, is not cut.
func writeDeadlines(t Timeouts) echo.MiddlewareFunc {
	t = t.withDefaults()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			res := c.Response()
			w := &deadlineWriter{ResponseWriter: res.Writer, rc: http.NewResponseController(res.Writer), limit: t.Write}
			res.Writer = w
			err := next(c)
			// net/http flushes what is buffered after the handler returns.
			_ = w.rc.SetWriteDeadline(time.Now().Add(t.Write))
			return err
		}
	}
}

type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	limit time.Duration
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.limit))
	n, err := w.ResponseWriter.Write(p)
	_ = w.rc.SetWriteDeadline(time.Time{})
	return n, err
}

// FlushError bounds a flush as a write: a stream's events reach the
// socket there.
func (w *deadlineWriter) FlushError() error {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.limit))
	err := w.rc.Flush()
	_ = w.rc.SetWriteDeadline(time.Time{})
	return err
}

// Unwrap lets http.ResponseController reach the connection.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
