package agent

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// endedFeed is a feed holding evs and then its end.
func endedFeed(evs []Event) *listFeed {
	return &listFeed{evs: evs, ended: true, closed: make(chan struct{})}
}

// TestWriteFeedJoinsQueuedText: text already queued behind the writer goes
// out as one event per run of one kind, in order, with nothing lost; a
// tool call between runs keeps them apart.
func TestWriteFeedJoinsQueuedText(t *testing.T) {
	var events []Event
	var want strings.Builder
	for i := 0; i < 1500; i++ {
		events = append(events, Event{Name: EventDelta, Data: TextData{Text: "ab"}})
		want.WriteString("ab")
	}
	events = append(events, Event{Name: EventReasoning, Data: TextData{Text: "think"}},
		Event{Name: EventReasoning, Data: TextData{Text: "ing"}},
		Event{Name: EventToolCall, Data: ToolCallData{ID: "c1", Name: "ls"}},
		Event{Name: EventDelta, Data: TextData{Text: "x"}},
		Event{Name: EventDelta, Data: TextData{Text: "y"}})
	rec := httptest.NewRecorder()
	if err := WriteFeed(context.Background(), rec, endedFeed(events), nil, time.Hour, nil); err != nil {
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
	var events []Event
	chunk := strings.Repeat("z", 1000)
	for i := 0; i < 40; i++ {
		events = append(events, Event{Name: EventDelta, Data: TextData{Text: chunk}})
	}
	rec := httptest.NewRecorder()
	if err := WriteFeed(context.Background(), rec, endedFeed(events), nil, time.Hour, nil); err != nil {
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
