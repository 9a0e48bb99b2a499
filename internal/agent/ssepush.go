package agent

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/knowspace/knowspace/internal/connstate"
)

// A Notifier is a feed that can call a function when it may have more,
// once, rather than close a channel a goroutine waits on. fn is called at
// once when the feed has more after what Next last returned.
type Notifier interface {
	OnReady(fn func())
}

// ErrNotPushable says PushEvents cannot take this stream (HTTP/2, or a
// writer that cannot give up its connection): write it with WriteFeed.
var ErrNotPushable = errors.New("the stream's connection cannot be taken from the server")

// PushSSE takes an HTTP/1.1 stream's connection from the server and
// writes feed's events to it as they come, from the goroutine that made
// them ready, so an idle stream holds no goroutine at all: not the
// handler's, nor net/http's read of the connection, which end now. A
// client that left is seen at once (connstate.Watch) and closes the
// feed. On ErrNotPushable nothing was written.
func PushSSE(w http.ResponseWriter, r *http.Request, feed Feed, heartbeat time.Duration) error {
	return PushEvents(w, r, feed, heartbeat, appendEvent)
}

// PushEvents is PushSSE with the events spelled by enc.
func PushEvents(w http.ResponseWriter, r *http.Request, feed Feed, heartbeat time.Duration, enc Encoder) error {
	n, ok := feed.(Notifier)
	if !ok || r.ProtoMajor != 1 || r.ProtoMinor < 1 {
		return ErrNotPushable
	}
	head := sseHead(w.Header())
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return ErrNotPushable
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	p := &pusher{conn: conn, feed: feed, notify: n, ctx: ctx, cancel: cancel, every: heartbeat, enc: enc, told: takenHook(r.Context())}
	if err := p.write(head); err != nil {
		p.end()
		return nil
	}
	p.mu.Lock()
	p.beat = time.AfterFunc(heartbeat, p.heartbeat)
	p.unwatch = connstate.Watch(conn, p.end)
	p.mu.Unlock()
	p.pump()
	return nil
}

// sseHead is the response head of a pushed stream: the headers the
// middleware set, the event stream's own, chunked framing, and the
// connection closed at the stream's end.
func sseHead(h http.Header) []byte {
	h = h.Clone()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Set("Transfer-Encoding", "chunked")
	h.Set("Connection", "close")
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b := []byte("HTTP/1.1 200 OK\r\n")
	for _, k := range keys {
		for _, v := range h[k] {
			b = append(append(append(append(b, k...), ": "...), v...), "\r\n"...)
		}
	}
	return append(b, "\r\n"...)
}

// pusher writes one taken stream. Only one pump runs at a time; a wake-up
// while it runs makes it look again before it stops.
type pusher struct {
	conn   net.Conn
	feed   Feed
	notify Notifier
	ctx    context.Context
	cancel context.CancelFunc
	every  time.Duration
	enc    Encoder

	beat     *time.Timer
	unwatch  func()
	told     func(written int64) // the request's hook, at the end
	tellOnce sync.Once
	written  atomic.Int64 // body bytes

	wmu sync.Mutex // one write at a time: the pump's or a heartbeat's

	mu      sync.Mutex
	running bool
	again   bool
	ended   bool
}

// pump writes what the feed has, then asks to be called when it has more.
func (p *pusher) pump() {
	p.mu.Lock()
	if p.running || p.ended {
		p.again = true
		p.mu.Unlock()
		return
	}
	p.running = true
	p.mu.Unlock()
	for {
		evs, _, end := p.feed.Next(p.ctx)
		if len(evs) > 0 && p.send(evs) != nil || end {
			if end {
				// Accounted before the client can see the end.
				p.tell()
				_ = p.write([]byte("0\r\n\r\n"))
			}
			p.end()
			return
		}
		if len(evs) > 0 {
			continue
		}
		p.mu.Lock()
		if p.again {
			p.again = false
			p.mu.Unlock()
			continue
		}
		p.running = false
		p.mu.Unlock()
		p.notify.OnReady(p.wake)
		return
	}
}

func (p *pusher) wake() { go p.pump() }

func (p *pusher) send(evs []Event) error { return writeBatches(evs, p.enc, p.chunk) }

func (p *pusher) heartbeat() {
	p.mu.Lock()
	ended := p.ended
	p.mu.Unlock()
	if !ended && p.chunk([]byte(": heartbeat\n\n")) != nil {
		p.end()
	}
}

// chunk writes b as one chunk and puts the next heartbeat off. Nothing
// is written for nothing (an event the door's protocol does not spell):
// an empty chunk is the body's end.
func (p *pusher) chunk(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	out := make([]byte, 0, len(b)+16)
	out = strconv.AppendInt(out, int64(len(b)), 16)
	out = append(append(append(out, "\r\n"...), b...), "\r\n"...)
	if err := p.write(out); err != nil {
		return err
	}
	p.written.Add(int64(len(b)))
	p.mu.Lock()
	if p.beat != nil {
		p.beat.Reset(p.every)
	}
	p.mu.Unlock()
	return nil
}

func (p *pusher) write(b []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_ = p.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err := p.conn.Write(b)
	return err
}

// end closes the stream once: the feed is told (a feed's Close may come
// while its Next runs), the connection closed.
func (p *pusher) end() {
	p.mu.Lock()
	if p.ended {
		p.mu.Unlock()
		return
	}
	p.ended = true
	beat, unwatch := p.beat, p.unwatch
	p.mu.Unlock()
	if beat != nil {
		beat.Stop()
	}
	if unwatch != nil {
		unwatch()
	}
	p.cancel()
	p.feed.Close()
	_ = p.conn.Close()
	p.tell()
}

// tell hands the request's hook the body bytes written, once.
func (p *pusher) tell() {
	p.tellOnce.Do(func() {
		if p.told != nil {
			p.told(p.written.Load())
		}
	})
}
