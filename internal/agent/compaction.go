package agent

import (
	"fmt"
	"strings"

	"github.com/knowspace/knowspace/internal/agent/llm"
)

const compactPrompt = `You compact the working memory of a file-reading assistant.
Summarize the conversation excerpt below so the assistant can continue without it. Keep, verbatim where possible:
- every file URI (kb://...) with the offsets and page ranges that were read or matched;
- facts found in the files, with the URI and offset they came from;
- decisions made and questions still open;
- which listings or searches were incomplete (next_cursor / next_offset / complete:false).
Do not add anything that is not in the excerpt. The original files are unchanged and can be read again.`

// unit is a run of messages compacted together: an assistant message with
// its tool calls plus their results, or a single message.
type unit struct{ start, end int }

// compactIfNeeded summarizes the oldest history and observations in batches
// until the estimate fits the input limit. The current question is never
// touched, a call is compacted with its result, and every summary costs a
// model call from the shared budget.
func (s *turnState) compactIfNeeded() error {
	limit := inputLimit(s.meta)
	for round := 0; ; round++ {
		before := s.breakdown().total()
		if before <= limit {
			return nil
		}
		batch, ok := s.nextBatch(before-limit, limit-len(compactPrompt)-ProtocolReserve)
		if !ok {
			return fail("context_overflow", "the conversation is %d bytes, over the input limit of %d, and nothing more can be compacted; start a new conversation or ask about a smaller scope", before, limit)
		}
		if err := s.takeModelCall(); err != nil {
			return err
		}
		summary, err := s.summarize(s.msgs[batch.start:batch.end])
		if err != nil {
			return err
		}
		role := llm.RoleAssistant
		prefix := "(My notes from earlier in this turn, compacted; the files are unchanged and can be read again.)\n"
		if batch.end <= s.question {
			role = llm.RoleUser
			prefix = "(Summary of the earlier conversation, compacted.)\n"
		}
		replaced := llm.Message{Role: role, Content: prefix + summary}
		msgs := append(append(append([]llm.Message(nil), s.msgs[:batch.start]...), replaced), s.msgs[batch.end:]...)
		if batch.end <= s.question {
			s.question -= batch.end - batch.start - 1
		}
		s.msgs = msgs
		after := s.breakdown().total()
		if after >= before {
			return fail("context_overflow", "compaction did not shrink the context (%d → %d bytes); start a new conversation", before, after)
		}
		s.compactions++
		s.last = &Compaction{Before: before, After: after, Ratio: float64(before) / float64(after)}
		s.emit(Event{Name: EventContext, Data: s.contextData()})
	}
}

// units splits the messages, except the current question, into units.
func (s *turnState) units() []unit {
	var us []unit
	for i := 0; i < len(s.msgs); {
		if i == s.question {
			i++
			continue
		}
		j := i + 1
		if len(s.msgs[i].ToolCalls) > 0 {
			for j < len(s.msgs) && s.msgs[j].Role == llm.RoleTool {
				j++
			}
		}
		us = append(us, unit{i, j})
		i = j
	}
	return us
}

// nextBatch picks the oldest contiguous units on one side of the question
// (earlier history first, then this turn's observations) that free at least
// need bytes without exceeding max bytes themselves.
func (s *turnState) nextBatch(need, max int) (unit, bool) {
	var before, after []unit
	for _, u := range s.units() {
		if u.start < s.question {
			before = append(before, u)
		} else {
			after = append(after, u)
		}
	}
	for _, side := range [][]unit{before, after} {
		if len(side) == 0 {
			continue
		}
		b, size := unit{side[0].start, side[0].start}, 0
		for _, u := range side {
			n := 0
			for _, m := range s.msgs[u.start:u.end] {
				n += messageBytes(m)
			}
			if size+n > max || size >= need+need/4 {
				break
			}
			b.end, size = u.end, size+n
		}
		// A batch of a few short messages saves nothing once summarized.
		if size > 512 {
			return b, true
		}
	}
	return unit{}, false
}

func (s *turnState) summarize(batch []llm.Message) (string, error) {
	var b strings.Builder
	for _, m := range batch {
		fmt.Fprintf(&b, "[%s]", m.Role)
		if m.ToolCallID != "" {
			fmt.Fprintf(&b, " result of %s", m.ToolCallID)
		}
		b.WriteString("\n")
		b.WriteString(m.Content)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "\ncall %s %s(%s)", c.ID, c.Name, c.Arguments)
		}
		b.WriteString("\n\n")
	}
	resp, err := s.r.Model.Complete(llm.WithPurpose(s.ctx, llm.PurposeCompaction), llm.Request{
		System:   compactPrompt,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: b.String()}},
	})
	if err != nil {
		return "", err
	}
	if resp.Usage != nil {
		s.addUsage(*resp.Usage)
	}
	if strings.TrimSpace(resp.Text) == "" {
		return "", fail("compaction_failed", "the model returned an empty summary while compacting the context")
	}
	return resp.Text, nil
}
