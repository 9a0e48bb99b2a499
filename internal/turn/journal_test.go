package turn

import (
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
)

// TestJournalKeepsItsBoundOnceWritten: a journal drops from memory only
// events already in the table, down to half its bound, and says so to a
// reader that needs them.
func TestJournalKeepsItsBoundOnceWritten(t *testing.T) {
	j := newJournal(time.Now(), 4<<10)
	text := agent.TextData{Text: strings.Repeat("x", 100)}
	for range 200 {
		j.add(agent.Event{Name: agent.EventDelta, Data: text})
	}
	if _, gone, _, _ := j.since(0); gone || j.bytes < 200*100 {
		t.Fatalf("nothing written yet, yet %d bytes kept (gone %v)", j.bytes, gone)
	}
	// Over the bound, every written event goes; the 50 unwritten stay.
	j.written(150)
	if j.base != 150 || j.bytes != 50*eventSize(agent.Event{Data: text}) {
		t.Fatalf("after writing 150: %d bytes from id %d", j.bytes, j.base+1)
	}
	if _, gone, _, _ := j.since(0); !gone {
		t.Fatal("a reader from the start was not sent to the table")
	}
	evs, gone, _, _ := j.since(j.base)
	if gone || len(evs) == 0 || evs[0].ID != j.base+1 || evs[len(evs)-1].ID != 200 {
		t.Fatalf("from %d: gone %v, %d events", j.base, gone, len(evs))
	}
	j.written(200)
	if j.bytes > 2<<10 {
		t.Fatalf("all written, still %d bytes", j.bytes)
	}
}
