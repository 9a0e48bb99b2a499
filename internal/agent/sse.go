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

// WriteSSE is the one writer of a stream: it writes each event from events
// and flushes it at once, sends a heartbeat comment when idle, and returns
// when events is closed, ctx ends, shutdown closes or a write fails.
func WriteSSE(ctx context.Context, w http.ResponseWriter, events <-chan Event, shutdown <-chan struct{}, heartbeat time.Duration) error {
	return WriteEvents(ctx, w, events, shutdown, heartbeat, appendEvent)
}

// Encoder appends an event as its door's protocol spells it.
type Encoder func(buf []byte, e Event) []byte

// WriteEvents is WriteSSE with the events spelled by enc: another door's
// protocol gets the same batching, heartbeat and shutdown behaviour.
func WriteEvents(ctx context.Context, w http.ResponseWriter, events <-chan Event, shutdown <-chan struct{}, heartbeat time.Duration, enc Encoder) error {
	rc := http.NewResponseController(w)
	timer := time.NewTimer(heartbeat)
	defer timer.Stop()
	write := func(b []byte) error {
		_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := w.Write(b); err != nil {
			return err
		}
		return rc.Flush()
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-shutdown:
			_ = write(enc(nil, Event{Name: EventError, Data: ShutdownError}))
			return ErrShutdown
		case <-timer.C:
			if err := write([]byte(": heartbeat\n\n")); err != nil {
				return err
			}
			timer.Reset(heartbeat)
		case e, ok := <-events:
			if !ok {
				return nil
			}
			// Events already queued when this one arrived go out in the same
			// write: nothing waits for later events, and a fast producer costs
			// one flush per batch, not per event. Queued text of one kind
			// becomes one event: a client behind a fast model parses one
			// JSON object where it would have parsed hundreds.
			var buf []byte
			j := joiner{cur: e}
			for queued := len(events); queued > 0 && len(buf) < maxBatchBytes; queued-- {
				next, more := <-events
				if !more {
					return write(enc(buf, j.event()))
				}
				if !j.join(next) {
					buf = enc(buf, j.event())
					j = joiner{cur: next}
				}
			}
			buf = enc(buf, j.event())
			if err := write(buf); err != nil {
				return err
			}
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			timer.Reset(heartbeat)
		}
	}
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
