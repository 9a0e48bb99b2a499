package compile

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
)

// finishTimeout bounds the database writes that record a job's outcome,
// which run after the job's own context may have ended.
const finishTimeout = 10 * time.Second

// Pool is a set of worker goroutines claiming jobs from the queue.
type Pool struct {
	s      *Service
	ctx    context.Context
	cancel context.CancelCauseFunc
	wg     sync.WaitGroup
	leases leases
}

// Start runs n workers until Stop. Workers of several processes may share
// one PostgreSQL database: claims never overlap.
func (s *Service) Start(n int) *Pool {
	ctx, cancel := context.WithCancelCause(context.Background())
	p := &Pool{s: s, ctx: ctx, cancel: cancel, leases: leases{held: map[int64]*heldJob{}}}
	prefix := workerPrefix()
	p.wg.Add(3)
	go p.reap()
	go p.heartbeat()
	go p.schedule()
	// Counted before they start, so readiness holds from Start on.
	s.running.Add(int64(n))
	for i := range n {
		p.wg.Add(1)
		go p.work(fmt.Sprintf("%s-%d", prefix, i))
	}
	return p
}

// Stop tells the workers to stop and waits until they did or ctx ends. A
// running job is interrupted and goes back to the queue without using up
// an attempt; another worker (here after a restart, or on another replica)
// picks it up.
func (p *Pool) Stop(ctx context.Context) error {
	p.cancel(errStopping)
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("compile workers did not stop in time: %w", ctx.Err())
	}
}

func workerPrefix() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}

// reap puts jobs whose lease expired (a crashed worker, here or on another
// replica) back in the queue.
func (p *Pool) reap() {
	defer p.wg.Done()
	t := time.NewTicker(max(p.s.lease/4, 50*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
			if n, err := p.s.st.RequeueExpired(p.ctx); err != nil && p.ctx.Err() == nil {
				slog.Warn("requeue expired jobs", "err", err)
			} else if n > 0 {
				// The store answers a count, not the jobs, so they are
				// counted under one kind.
				observe.JobTransition(JobKind, store.JobRunning, store.JobQueued, int(n))
				slog.Info("requeued jobs with expired leases", "count", n, "from", store.JobRunning, "to", store.JobQueued)
				p.s.notify()
			}
		}
	}
}

// WorkersRunning is how many workers of this process are claiming jobs.
func (s *Service) WorkersRunning() int { return int(s.running.Load()) }

func (p *Pool) work(owner string) {
	defer p.wg.Done()
	defer p.s.running.Add(-1)
	idle := time.NewTimer(0)
	defer idle.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		default:
		}
		j, err := p.s.st.ClaimJob(p.ctx, owner, p.s.lease)
		if err == nil {
			claimed := time.Now()
			observe.JobClaimed(j.Kind, queueWait(j, claimed))
			transition(j, store.JobQueued, store.JobRunning, owner, "attempt", j.Attempts)
			p.process(j, owner, claimed)
			continue
		}
		if !errors.Is(err, store.ErrNotFound) && p.ctx.Err() == nil {
			slog.Warn("claim job", "worker", owner, "err", err)
		}
		idle.Reset(p.s.poll)
		select {
		case <-p.ctx.Done():
			return
		case <-p.s.wake:
		case <-idle.C:
		}
	}
}

// process runs one claimed job under its timeout while the pool's
// heartbeat renews the lease and watches for a cancel request, then records
// the outcome.
func (p *Pool) process(j store.Job, owner string, claimed time.Time) {
	jctx, cancel := context.WithCancelCause(p.ctx)
	defer cancel(nil)
	timeout := 600 * time.Second
	var snap Snapshot
	if j.ConfigurationJSON != nil && json.Unmarshal([]byte(*j.ConfigurationJSON), &snap) == nil && snap.TimeoutS > 0 {
		timeout = time.Duration(snap.TimeoutS) * time.Second
	}
	tctx, tcancel := context.WithTimeoutCause(jctx, timeout, errTimeout)
	defer tcancel()

	// The pool's heartbeat renews the lease and cancels jctx when the user
	// asks to cancel or the lease is lost.
	p.leases.hold(j.ID, owner, cancel)
	var (
		res    any
		err    error
		result []any
	)
	if run, ok := p.s.runners[j.Kind]; ok {
		res, err = run.Run(tctx, j, owner)
	} else if j.Kind == OverviewJobKind {
		var r Result
		r, err = p.s.runOverview(tctx, j, owner)
		res, result = r, []any{"model_calls", r.ModelCalls, "overview_skipped", r.OverviewSkipped}
	} else {
		var r Result
		r, err = p.s.runJob(tctx, j, owner)
		res, result = r, []any{"model_calls", r.ModelCalls, "summary_skipped", r.SummarySkipped}
	}
	p.leases.release(j.ID)

	fctx, fcancel := context.WithTimeout(context.Background(), finishTimeout)
	defer fcancel()
	cause := context.Cause(tctx)
	var (
		ferr  error
		state string
		attrs []any
	)
	_, completed := res.(store.Completed)
	switch {
	case err == nil && completed:
		state = store.JobSucceeded
	case err == nil:
		b, _ := json.Marshal(res)
		ferr = p.s.st.CompleteJob(fctx, j.ID, owner, string(b))
		state, attrs = store.JobSucceeded, result
	case errors.Is(cause, errCancelled), errors.Is(err, store.ErrJobCancelled):
		ferr = p.s.st.FinishCancelled(fctx, j.ID, owner)
		state = store.JobCancelled
	case errors.Is(err, errWaiting):
		ferr = p.s.st.DeferJob(fctx, j.ID, owner, p.s.poll)
		state, attrs = store.JobQueued, []any{"reason", "waiting"}
	case errors.Is(cause, errStopping):
		ferr = p.s.st.ReleaseJob(fctx, j.ID, owner)
		state, attrs = store.JobQueued, []any{"reason", "shutdown"}
	case errors.Is(cause, errLeaseLost), errors.Is(err, store.ErrLeaseLost):
		// Another worker holds it now and records what becomes of it.
		slog.Warn("job lost its lease", "job", j.ID, "kind", j.Kind, "worker", owner)
		observe.JobRan(j.Kind, "lease_lost", time.Since(claimed))
		return
	default:
		f := classify(tctx, err)
		// Messages quote program output and provider answers; PostgreSQL
		// refuses invalid UTF-8 or NUL, which would fail this very update
		// and leave the job to rerun as "lease expired".
		f.Message = extract.SafeMessage(f.Message)
		state, ferr = p.s.st.FailJob(fctx, j.ID, owner, f.Code, f.Message, f.Retryable, p.s.backoff(j.Attempts))
		attrs = []any{"code", f.Code, "retryable", f.Retryable}
		if f.Code == "internal" {
			// The user sees only "internal"; the log keeps what it was.
			attrs = append(attrs, "err", err)
		}
		if state == store.JobQueued {
			p.s.notify()
		}
	}
	if ferr == nil {
		observe.JobRan(j.Kind, state, time.Since(claimed))
		transition(j, store.JobRunning, state, owner, append(attrs, "duration_ms", time.Since(claimed).Milliseconds())...)
	}
	if ferr != nil && !errors.Is(ferr, store.ErrLeaseLost) {
		slog.Error("record compile job outcome", "job", j.ID, "err", ferr)
	}
}
