package agent

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestWriteSSEJoinsQueuedText: text already queued behind the writer goes
// out as one event per run of one kind, in order, with nothing lost; a
// tool call between runs keeps them apart.
func TestWriteSSEJoinsQueuedText(t *testing.T) {
	events := make(chan Event, 4000)
	var want strings.Builder
	for i := 0; i < 1500; i++ {
		events <- Event{Name: EventDelta, Data: TextData{Text: "ab"}}
		want.WriteString("ab")
	}
	events <- Event{Name: EventReasoning, Data: TextData{Text: "think"}}
	events <- Event{Name: EventReasoning, Data: TextData{Text: "ing"}}
	events <- Event{Name: EventToolCall, Data: ToolCallData{ID: "c1", Name: "ls"}}
	events <- Event{Name: EventDelta, Data: TextData{Text: "x"}}
	events <- Event{Name: EventDelta, Data: TextData{Text: "y"}}
	close(events)
	rec := httptest.NewRecorder()
	if err := WriteSSE(context.Background(), rec, events, nil, time.Hour); err != nil {
		t.Fatal(err)
	}
	got := rec.Body.String()
	if n := strings.Count(got, "event: delta\n"); n != 2 {
		t.Fatalf("%d delta events, want 2 (one per run): %.300s", n, got)
	}
	if !strings.Contains(got, `"text":"`+want.String()+`"`) || !strings.Contains(got, `"text":"xy"`) ||
		!strings.Contains(got, "event: reasoning\ndata: {\"text\":\"thinking\"}") {
		t.Fatalf("joined text lost or reordered: %.300s", got)
	}
	if strings.Index(got, "thinking") > strings.Index(got, `"c1"`) || strings.Index(got, `"c1"`) > strings.Index(got, `"xy"`) {
		t.Fatal("events out of order")
	}
}

// TestJoinedTextIsBounded: one joined event never grows past maxJoinedText.
func TestJoinedTextIsBounded(t *testing.T) {
	events := make(chan Event, 100)
	chunk := strings.Repeat("z", 1000)
	for i := 0; i < 40; i++ {
		events <- Event{Name: EventDelta, Data: TextData{Text: chunk}}
	}
	close(events)
	rec := httptest.NewRecorder()
	if err := WriteSSE(context.Background(), rec, events, nil, time.Hour); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if strings.HasPrefix(line, "data: ") {
			n := strings.Count(line, "z")
			if n > maxJoinedText {
				t.Fatalf("an event carries %d bytes of text", n)
			}
			total += n
		}
	}
	if total != 40*1000 {
		t.Fatalf("%d bytes of text arrived, want 40000", total)
	}
}
