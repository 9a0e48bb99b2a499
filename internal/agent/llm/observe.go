package llm

import (
	"time"

	"github.com/knowspace/knowspace/internal/observe"
)

// Every model call, whoever makes it (a chat turn, compaction, a compile
// job, a skill draft, a model check), goes through Model.Stream, so the
// metrics are taken here: once per call, at its end.

// outcomeOf is the metric label of a failed call: its error kind.
func outcomeOf(err error) string {
	if e, ok := AsError(err); ok {
		return string(e.Kind)
	}
	return "error"
}

// observed reports the call once, whichever of end, fail or Close comes
// first.
func (s *Stream) observed(outcome string) {
	if !s.reported.CompareAndSwap(false, true) {
		return
	}
	var in, out int
	if s.usage != nil && outcome == "ok" {
		in, out = s.usage.InputTokens, s.usage.OutputTokens
	}
	observe.ModelCall(s.model.cfg.ID, outcome, time.Since(s.start), in, out)
	tally := TallyOf(s.ctx)
	if s.model.recorder != nil || tally != nil {
		u := s.callUsage()
		if s.model.recorder != nil {
			s.model.recorder.RecordUsage(u)
		}
		tally.add(u)
	}
}
