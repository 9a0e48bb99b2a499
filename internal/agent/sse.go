package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// SSE timing: a heartbeat comment after this much silence keeps proxies from
// closing an idle stream; a write blocked this long means the client is gone.
const (
	HeartbeatInterval = 15 * time.Second
	writeTimeout      = 30 * time.Second
)

// ErrShutdown ends streams when the server stops.
var ErrShutdown = errors.New("server shutting down")

// ShutdownError is the error event a stream ends with when the server stops.
var ShutdownError = ErrorData{Code: "server_shutdown", Message: "the server is restarting; send the message again in a moment"}

// SSEHeaders prepares w for an event stream and sends the headers at once.
func SSEHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w).Flush()
}

// Encoder appends an event as its door's protocol spells it.
type Encoder func(buf []byte, e Event) []byte

// A Feed is a stream's events for a writer that pulls them: Next returns
// the events ready now, or none and a channel ready when there may be
// more; end says the feed has no more after evs. Close says the writer is
// done with it; it may come while Next runs, and more than once. A feed
// read this way needs no goroutine of its own between its writer and its
// source.
type Feed interface {
	Next(ctx context.Context) (evs []Event, wait <-chan struct{}, end bool)
	Close()
}

// WriteFeed is the writer of a stream the server does not take from
// net/http (HTTP/2, see PushEvents): it writes feed's events as they come,
// each batch flushed at once, sends a heartbeat comment when idle, and
// returns when the feed ends, ctx ends, shutdown closes or a write fails.
// enc spells the events (nil: SSE as the native stream has them).
func WriteFeed(ctx context.Context, w http.ResponseWriter, feed Feed, shutdown <-chan struct{}, heartbeat time.Duration, enc Encoder) error {
	if enc == nil {
		enc = appendEvent
	}
	s := newSSEWriter(w, heartbeat, enc)
	defer s.timer.Stop()
	defer feed.Close()
	for {
		evs, wait, end := feed.Next(ctx)
		if len(evs) > 0 {
			if err := s.send(evs); err != nil {
				return err
			}
		}
		if end {
			return nil
		}
		if len(evs) > 0 {
			continue
		}
		for ready := false; !ready; {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-shutdown:
				return s.shutdown()
			case <-s.timer.C:
				if err := s.heartbeat(); err != nil {
					return err
				}
			case <-wait:
				ready = true
			}
		}
	}
}

// sseWriter writes events and heartbeats to one stream, each write
// flushed at once and bounded by writeTimeout.
type sseWriter struct {
	w     http.ResponseWriter
	rc    *http.ResponseController
	timer *time.Timer
	every time.Duration
	enc   Encoder
}

func newSSEWriter(w http.ResponseWriter, heartbeat time.Duration, enc Encoder) *sseWriter {
	return &sseWriter{w: w, rc: http.NewResponseController(w), timer: time.NewTimer(heartbeat), every: heartbeat, enc: enc}
}

func (s *sseWriter) write(b []byte) error {
	_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := s.w.Write(b); err != nil {
		return err
	}
	return s.rc.Flush()
}

func (s *sseWriter) heartbeat() error {
	if err := s.write([]byte(": heartbeat\n\n")); err != nil {
		return err
	}
	s.timer.Reset(s.every)
	return nil
}

func (s *sseWriter) shutdown() error {
	_ = s.write(s.enc(nil, Event{Name: EventError, Data: ShutdownError}))
	return ErrShutdown
}

// send writes evs in as few writes as maxBatchBytes allows. Text of one
// kind in a row becomes one event: a client behind a fast model parses
// one JSON object where it would have parsed hundreds.
func (s *sseWriter) send(evs []Event) error {
	if err := writeBatches(evs, s.enc, s.write); err != nil {
		return err
	}
	s.timer.Reset(s.every)
	return nil
}

// writeBatches encodes evs, text of one kind in a row joined, and hands
// them to write in pieces of about maxBatchBytes.
func writeBatches(evs []Event, enc Encoder, write func([]byte) error) error {
	var buf []byte
	j := joiner{cur: evs[0]}
	for _, next := range evs[1:] {
		if j.join(next) {
			continue
		}
		buf = enc(buf, j.event())
		j = joiner{cur: next}
		if len(buf) >= maxBatchBytes {
			if err := write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return write(enc(buf, j.event()))
}

// maxBatchBytes bounds one coalesced write; maxJoinedText one joined event.
const (
	maxBatchBytes = 64 << 10
	maxJoinedText = 16 << 10
)

// joiner gathers queued text events of one kind (answer or reasoning)
// into one: the client concatenates them anyway.
type joiner struct {
	cur  Event
	text []byte // cur's text and what joined it, once something has
}

func (j *joiner) join(next Event) bool {
	a, ok1 := j.cur.Data.(TextData)
	b, ok2 := next.Data.(TextData)
	have := len(a.Text)
	if j.text != nil {
		have = len(j.text)
	}
	if !ok1 || !ok2 || j.cur.Name != next.Name || have+len(b.Text) > maxJoinedText {
		return false
	}
	if j.text == nil {
		j.text = append(make([]byte, 0, 1024), a.Text...)
	}
	j.text = append(j.text, b.Text...)
	j.cur.ID = next.ID // a joined event resumes after the last it holds
	return true
}

func (j *joiner) event() Event {
	if j.text == nil {
		return j.cur
	}
	return Event{Name: j.cur.Name, Data: TextData{Text: string(j.text)}, ID: j.cur.ID}
}

// appendEvent renders one event; JSON never contains a raw newline, so one
// data line always holds the whole payload.
func appendEvent(buf []byte, e Event) []byte {
	data, err := json.Marshal(e.Data)
	if err != nil {
		data = []byte(`{"code":"internal","message":"an event could not be encoded"}`)
		e.Name = EventError
	}
	if e.ID > 0 {
		buf = append(buf, "id: "...)
		buf = strconv.AppendInt(buf, int64(e.ID), 10)
		buf = append(buf, '\n')
	}
	buf = append(buf, "event: "...)
	buf = append(buf, e.Name...)
	buf = append(buf, "\ndata: "...)
	buf = append(buf, data...)
	return append(buf, "\n\n"...)
}
