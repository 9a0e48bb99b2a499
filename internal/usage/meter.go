// Package usage keeps what model calls cost: every call's tokens (the
// provider's count, or an estimate marked as one) and cost, rolled up by
// day, user, model and purpose; the reports users and admins read.
package usage

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
)

// Meter records model calls. Calls are queued and written in batches by
// Run, so the end of a stream never waits for the database; a full queue
// is written at once rather than dropped.
type Meter struct {
	st  *store.Store
	now func() time.Time

	mu      sync.Mutex
	pending []llm.CallUsage
	wake    chan struct{}
	flushed *sync.Cond
	writing int // batches taken but not yet written
}

// queueLimit is how many calls wait before a recorder writes them itself.
const queueLimit = 4096

// New makes a meter on st; Run writes what it records.
func New(st *store.Store) *Meter {
	m := &Meter{st: st, now: time.Now, wake: make(chan struct{}, 1)}
	m.flushed = sync.NewCond(&m.mu)
	return m
}

// RecordUsage queues one call's usage (llm.UsageRecorder).
func (m *Meter) RecordUsage(c llm.CallUsage) {
	observe.UsageTokens(c.Model, string(c.Purpose), c.InputTokens, c.OutputTokens)
	m.mu.Lock()
	m.pending = append(m.pending, c)
	full := len(m.pending) >= queueLimit
	m.mu.Unlock()
	if full {
		m.writeBatch(context.Background())
		return
	}
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// Embedded records an embedding request (embed.Client's OnUsage). Its
// batch mixes files of many owners, so it is filed under no user: the
// global budget counts it, no user's does.
func (m *Meter) Embedded(model string, tokens int, estimated bool, cost float64) {
	m.RecordUsage(llm.CallUsage{Model: model, Attribution: llm.Attribution{Purpose: llm.PurposeEmbedding},
		InputTokens: tokens, Estimated: estimated, Cost: cost})
}

// Run writes queued calls until ctx ends, then writes what is left.
func (m *Meter) Run(ctx context.Context) {
	for {
		select {
		case <-m.wake:
			m.writeBatch(ctx)
		case <-ctx.Done():
			m.writeBatch(context.Background())
			return
		}
	}
}

// Flush waits until every call recorded so far is written, writing them
// itself; the reports and budget checks call it for read-your-writes.
func (m *Meter) Flush(ctx context.Context) {
	m.writeBatch(ctx)
	m.mu.Lock()
	for m.writing > 0 {
		m.flushed.Wait()
	}
	m.mu.Unlock()
}

func (m *Meter) writeBatch(ctx context.Context) {
	m.mu.Lock()
	calls := m.pending
	m.pending = nil
	if len(calls) > 0 {
		m.writing++
	}
	m.mu.Unlock()
	if len(calls) == 0 {
		return
	}
	defer func() {
		m.mu.Lock()
		m.writing--
		m.flushed.Broadcast()
		m.mu.Unlock()
	}()
	if err := m.st.AddUsage(ctx, rollUp(calls, m.now().UTC())); err != nil {
		slog.Error("usage: write model calls", "calls", len(calls), "err", err)
	}
}

// rollUp adds calls into one row per day, user, model, purpose and kind of
// count.
func rollUp(calls []llm.CallUsage, now time.Time) []store.UsageDay {
	day := now.Format(time.DateOnly)
	index := map[store.UsageDay]int{}
	var out []store.UsageDay
	for _, c := range calls {
		key := store.UsageDay{Day: day, UserID: c.UserID, Model: c.Model, Purpose: string(c.Purpose), Estimated: c.Estimated}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, key)
		}
		r := &out[i]
		r.Calls++
		r.InputTokens += int64(c.InputTokens)
		r.OutputTokens += int64(c.OutputTokens)
		r.Cost += c.Cost
	}
	return out
}
