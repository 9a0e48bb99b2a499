package llm

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// pacedReader hands out its data in reads of the sizes given, in turn.
type pacedReader struct {
	data  []byte
	sizes []int
	i     int
}

func (p *pacedReader) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	n := p.sizes[p.i%len(p.sizes)]
	p.i++
	n = min(n, len(b), len(p.data))
	copy(b, p.data[:n])
	p.data = p.data[n:]
	return n, nil
}

func (p *pacedReader) Close() error { return nil }

// An idle stream holds the small buffer; a flood grows it to the cap and a
// trickle after it gives the large buffers back, and every event comes out
// whole through all three phases.
func TestSSEBodyBufferFollowsTheRate(t *testing.T) {
	var src, want strings.Builder
	for i := 0; i < 3000; i++ {
		payload := fmt.Sprintf(`{"n":%d,"pad":"%s"}`, i, strings.Repeat("x", i%50))
		fmt.Fprintf(&src, "data: %s\n\n", payload)
		fmt.Fprintf(&want, "data: %s\n", payload)
	}
	full := []byte(src.String())
	flood := len(full) / 2
	// The first half arrives as fast as the buffer takes it, the rest in
	// 100-byte reads.
	r := &pacedReader{data: full[:flood], sizes: []int{1 << 20}}
	b := newSSEBody(io.NopCloser(r), &callState{})
	if len(b.in) != sseMinRead {
		t.Fatalf("new body buffer %d bytes, want %d", len(b.in), sseMinRead)
	}
	var got bytes.Buffer
	p := make([]byte, 4096)
	read := func() error {
		n, err := b.Read(p)
		got.Write(p[:n])
		return err
	}
	peak := 0
	for len(r.data) > 0 {
		if err := read(); err != nil {
			t.Fatal(err)
		}
		peak = max(peak, len(b.in))
	}
	if peak != sseMaxRead {
		t.Fatalf("buffer peaked at %d bytes during the flood, want %d", peak, sseMaxRead)
	}
	r.data, r.sizes = full[flood:], []int{100}
	var err error
	for err == nil {
		err = read()
	}
	if err != io.EOF {
		t.Fatal(err)
	}
	if len(b.in) != sseMinRead || cap(b.out) > sseMinRead {
		t.Fatalf("after the trickle: in %d bytes, out cap %d; want %d and at most %d", len(b.in), cap(b.out), sseMinRead, sseMinRead)
	}
	if got.String() != want.String() {
		t.Fatalf("events differ: got %d bytes, want %d", got.Len(), want.Len())
	}
}
