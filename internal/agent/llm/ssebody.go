package llm

import (
	"bytes"
	"io"
)

// sseBody sits between the HTTP response body and go-openai's line reader
// and hands it a cleaned-up event stream. It exists because go-openai
// v1.43.0 cannot be configured around these facts (PROVIDER-QUIRKS.md):
//
//   - Recv returns the same io.EOF after data: [DONE] and after a body that
//     just ends; sseBody notes [DONE] in callState as it passes.
//   - comment, event:, id: and blank lines count toward EmptyMessagesLimit
//     and pile up in its error buffer, so a keep-alive flood fails the
//     stream and an error after keep-alives comes back as a JSON syntax
//     error; sseBody drops them and emits one line per event.
//   - bare "\r" line endings and multi-line data: events are not understood;
//     sseBody splits on CR, LF and CRLF and joins data lines of one event.
//   - a last line without a newline is lost; sseBody ends it.
//
// Lines that are not SSE at all pass through unchanged, so a plain JSON
// error body sent with status 200 still reaches go-openai's error parsing.
type sseBody struct {
	src io.ReadCloser
	st  *callState

	in   []byte // upstream bytes; in[r:w] not yet split into lines
	r, w int

	out []byte // normalized bytes for Read; out[o:] not yet returned
	o   int

	event      []byte // data of the event being assembled
	hasEvent   bool
	errorEvent bool // the event was announced with "event: error"

	err error // upstream read error, returned once out is drained
}

// The input buffer starts small, because a stream spends most of its life
// waiting for the model and every open stream holds one; it doubles while
// reads fill it (a fast provider) up to sseMaxRead, and drops back once
// reads come in small again.
const (
	sseMinRead = 1 << 10
	sseMaxRead = 32 << 10
)

func newSSEBody(src io.ReadCloser, st *callState) *sseBody {
	return &sseBody{src: src, st: st, in: make([]byte, sseMinRead)}
}

func (b *sseBody) Read(p []byte) (int, error) {
	for b.o >= len(b.out) {
		b.out, b.o = b.out[:0], 0
		if b.err != nil {
			return 0, b.err
		}
		b.fill()
	}
	n := copy(p, b.out[b.o:])
	b.o += n
	return n, nil
}

func (b *sseBody) Close() error { return b.src.Close() }

// fill turns the complete lines already read into output; when there are
// none it reads more from upstream.
func (b *sseBody) fill() {
	for {
		line, ok := b.nextLine()
		if !ok {
			break
		}
		b.handleLine(line)
	}
	if len(b.out) > 0 {
		return
	}
	if b.r > 0 {
		b.w = copy(b.in, b.in[b.r:b.w])
		b.r = 0
	}
	if b.w == len(b.in) {
		// A line longer than the buffer (a huge chunk): grow.
		b.in = append(b.in, make([]byte, len(b.in))...)
	}
	free := len(b.in) - b.w
	n, err := b.src.Read(b.in[b.w:])
	b.w += n
	if n > 0 {
		b.st.touch()
	}
	b.resize(n, free)
	if err != nil {
		b.st.bodyEnded.Store(true)
		for {
			line, ok := b.nextLine()
			if !ok {
				break
			}
			b.handleLine(line)
		}
		if err == io.EOF {
			// A clean end completes the last line and event (an error line
			// without a newline is otherwise lost). After a reset the tail
			// is a fragment and is dropped.
			if b.w > b.r {
				b.handleLine(bytes.TrimSuffix(b.in[b.r:b.w], []byte("\r")))
			}
			b.dispatch()
		}
		b.r = b.w
		b.err = err
	}
}

// resize adapts the input buffer to the last read of n bytes into free
// bytes of room.
func (b *sseBody) resize(n, free int) {
	switch {
	case n == free && len(b.in) < sseMaxRead:
		b.in = append(b.in, make([]byte, len(b.in))...)
	case len(b.in) > sseMinRead && n < sseMinRead/4 && b.w-b.r < sseMinRead/4:
		// Trickling again: give the large buffers back.
		in := make([]byte, sseMinRead)
		b.w = copy(in, b.in[b.r:b.w])
		b.in, b.r = in, 0
		if cap(b.out) > sseMinRead {
			b.out = nil
		}
		if cap(b.event) > sseMinRead && len(b.event) < sseMinRead {
			b.event = append([]byte(nil), b.event...)
		}
	}
}

// nextLine returns the next line ended by LF, CRLF or a bare CR.
func (b *sseBody) nextLine() ([]byte, bool) {
	buf := b.in[b.r:b.w]
	lf := bytes.IndexByte(buf, '\n')
	seg := buf
	if lf >= 0 {
		seg = buf[:lf]
	}
	if cr := bytes.IndexByte(seg, '\r'); cr >= 0 {
		switch {
		case cr+1 < len(seg):
			// A bare CR ends this line; the rest waits for the next call.
			b.r += cr + 1
			return seg[:cr], true
		case lf >= 0:
			b.r += lf + 1 // CRLF
			return seg[:cr], true
		default:
			// CR is the last byte read: it may be the start of a CRLF.
			return nil, false
		}
	}
	if lf < 0 {
		return nil, false
	}
	b.r += lf + 1
	return seg, true
}

var (
	dataPrefix  = []byte("data: ")
	doneMarker  = []byte("[DONE]")
	errorPrefix = []byte(`{"error"`)
)

func (b *sseBody) handleLine(line []byte) {
	if len(line) == 0 {
		b.dispatch()
		return
	}
	if line[0] == ':' {
		return // comment, e.g. ": keep-alive"
	}
	field, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(field) {
	case "data":
		if b.hasEvent && startsEvent(value) {
			// Servers that omit the blank line between events.
			b.dispatch()
		}
		if b.hasEvent {
			// SSE joins data lines with "\n"; go-openai reads one line per
			// event, and a newline can only sit between JSON tokens, so a
			// space means the same.
			b.event = append(b.event, ' ')
		}
		b.event = append(b.event, value...)
		b.hasEvent = true
	case "event":
		b.errorEvent = string(value) == "error"
	case "id", "retry":
	default:
		b.dispatch()
		b.out = append(b.out, line...)
		b.out = append(b.out, '\n')
	}
}

func startsEvent(v []byte) bool {
	v = bytes.TrimLeft(v, " \t")
	return len(v) > 0 && v[0] == '{' || bytes.Equal(v, doneMarker)
}

func (b *sseBody) dispatch() {
	if !b.hasEvent {
		b.errorEvent = false
		return
	}
	payload := bytes.TrimSpace(b.event)
	if bytes.Equal(payload, doneMarker) {
		b.st.sawDone.Store(true)
	}
	b.out = append(b.out, dataPrefix...)
	if b.errorEvent && !bytes.HasPrefix(payload, errorPrefix) {
		// "event: error" with a bare error body: wrap it so it is read as
		// the error it is, not as a chunk.
		b.out = append(b.out, `{"error":`...)
		if len(payload) > 0 && payload[0] == '{' {
			b.out = append(b.out, payload...)
		} else {
			b.out = append(b.out, `{"message":"provider sent an error event"}`...)
		}
		b.out = append(b.out, '}')
	} else {
		b.out = append(b.out, payload...)
	}
	b.out = append(b.out, '\n')
	if b.errorEvent || bytes.HasPrefix(payload, errorPrefix) {
		// go-openai reads one more line after an error line before it
		// reports it; give it that line now rather than at EOF.
		b.out = append(b.out, '\n')
	}
	b.event = b.event[:0]
	b.hasEvent, b.errorEvent = false, false
}
