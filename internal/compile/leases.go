package compile

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/store"
)

// leases is the set of jobs a pool's workers run. One heartbeat renews
// them all with one statement per interval, however many jobs run.
type leases struct {
	mu   sync.Mutex
	held map[int64]*heldJob
}

type heldJob struct {
	owner  string
	cancel context.CancelCauseFunc
}

// hold registers a running job; release must follow before its outcome is
// recorded, so a late heartbeat cannot cancel a job that already ended.
func (l *leases) hold(id int64, owner string, cancel context.CancelCauseFunc) {
	l.mu.Lock()
	l.held[id] = &heldJob{owner: owner, cancel: cancel}
	l.mu.Unlock()
}

func (l *leases) release(id int64) {
	l.mu.Lock()
	delete(l.held, id)
	l.mu.Unlock()
}

func (l *leases) snapshot() ([]store.HeldLease, map[int64]*heldJob) {
	l.mu.Lock()
	defer l.mu.Unlock()
	list := make([]store.HeldLease, 0, len(l.held))
	jobs := make(map[int64]*heldJob, len(l.held))
	for id, h := range l.held {
		list = append(list, store.HeldLease{ID: id, Owner: h.owner})
		jobs[id] = h
	}
	return list, jobs
}

// heartbeat renews the leases of the pool's running jobs every beat and
// stops the jobs whose user asked to cancel them or whose lease is gone.
func (p *Pool) heartbeat() {
	defer p.wg.Done()
	t := time.NewTicker(p.s.beat)
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
		}
		list, jobs := p.leases.snapshot()
		if len(list) == 0 {
			continue
		}
		rctx, rcancel := context.WithTimeout(context.Background(), p.s.beat*3)
		renewed, err := p.s.st.RenewLeases(rctx, list, p.s.lease)
		rcancel()
		if err != nil {
			slog.Warn("renew job leases", "jobs", len(list), "err", err)
			continue
		}
		p.leases.mu.Lock()
		for id, h := range jobs {
			if p.leases.held[id] != h {
				continue // the job ended meanwhile
			}
			cancelled, ok := renewed[id]
			switch {
			case !ok:
				h.cancel(errLeaseLost)
			case cancelled:
				h.cancel(errCancelled)
			}
		}
		p.leases.mu.Unlock()
	}
}
