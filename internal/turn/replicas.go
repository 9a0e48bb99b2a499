package turn

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/store"
)

// The lease on a running turn: its replica renews it every beatEvery; one
// not renewed for Lease is a turn whose replica is gone, which any replica
// sweeping (every sweepEvery) or starting marks interrupted. An ended
// turn's row and events stay keepEvents for a client resuming it late.
const (
	Lease      = 30 * time.Second
	beatEvery  = 5 * time.Second
	sweepEvery = time.Minute
	keepEvents = 10 * time.Minute
	// stopPoll is how often a replica running detached turns asks whether
	// another replica was asked to stop one, when no notification came.
	stopPoll = time.Second
)

const interruptedMessage = "the server restarted while this answer was being written; retry to answer again"

// wakers are the followers on this replica of turns running elsewhere,
// woken when a notification says their turn wrote events.
type wakers struct {
	mu  sync.Mutex
	all map[int64]map[chan struct{}]bool
}

func (w *wakers) add(messageID int64) chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.all == nil {
		w.all = map[int64]map[chan struct{}]bool{}
	}
	if w.all[messageID] == nil {
		w.all[messageID] = map[chan struct{}]bool{}
	}
	c := make(chan struct{}, 1)
	w.all[messageID][c] = true
	return c
}

func (w *wakers) remove(messageID int64, c chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.all[messageID], c)
	if len(w.all[messageID]) == 0 {
		delete(w.all, messageID)
	}
}

// wake wakes the followers of the turn; 0 wakes all (notifications may
// have been lost).
func (w *wakers) wake(messageID int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for id, set := range w.all {
		if messageID != 0 && id != messageID {
			continue
		}
		for c := range set {
			select {
			case c <- struct{}{}:
			default:
			}
		}
	}
}

// watchEvery is how often a follower through the table says it watches:
// well within the detached timeout of the replica running the turn.
func (s *Service) watchEvery() time.Duration {
	return min(s.detachedTimeout()/3, beatEvery)
}

func (s *Service) detachedTimeout() time.Duration {
	if s.DetachedTimeout <= 0 {
		return DefaultDetachedTimeout
	}
	return s.DetachedTimeout
}

// startReplica runs, once per service, what a replica does for the turns
// of all replicas: renew its leases, hear and poll for Stop asked
// elsewhere and for events written elsewhere, sweep turns whose replica
// is gone and drop old events. It ends when Shutdown closes.
func (s *Service) startReplica() {
	if s.Chat == nil {
		return
	}
	s.replicaOnce.Do(func() {
		ctx := store.Background(s.stopping())
		st := s.Chat.Store
		go st.Listen(ctx, store.ChannelTurnEvents, s.wakers.wake)
		go st.Listen(ctx, store.ChannelTurnStop, func(id int64) {
			if id == 0 {
				s.pollStops(ctx)
			} else {
				s.stopHere(id)
			}
		})
		go s.tend(ctx)
	})
}

func (s *Service) tend(ctx context.Context) {
	st := s.Chat.Store
	beat, sweep, poll := time.NewTicker(beatEvery), time.NewTicker(sweepEvery), time.NewTicker(stopPoll)
	defer beat.Stop()
	defer sweep.Stop()
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-beat.C:
			_, err := st.BeatRunningTurns(ctx, s.Replica)
			if errors.Is(err, store.ErrClosed) {
				return // the server is stopping
			}
			if err != nil && ctx.Err() == nil {
				slog.Warn("renew the running turns' lease", "err", err)
			}
		case <-poll.C:
			s.pollStops(ctx)
		case <-sweep.C:
			if n, err := st.InterruptStale(ctx, interruptedMessage, time.Now().Add(-Lease)); err != nil && ctx.Err() == nil {
				slog.Warn("sweep turns of replicas gone", "err", err)
			} else if n > 0 {
				slog.Info("marked turns of a replica gone as interrupted", "count", n)
			}
			if err := st.DropEndedTurns(ctx, time.Now().Add(-keepEvents)); err != nil && ctx.Err() == nil {
				slog.Warn("drop ended turns' events", "err", err)
			}
		}
	}
}

// pollStops stops the detached turns here that another replica was asked
// to stop; it asks the database only while some run here.
func (s *Service) pollStops(ctx context.Context) {
	s.detached.mu.Lock()
	n := len(s.detached.byMessage)
	s.detached.mu.Unlock()
	if n == 0 {
		return
	}
	ids, err := s.Chat.Store.StopsRequested(ctx, s.Replica)
	if err != nil {
		return
	}
	for _, id := range ids {
		s.stopHere(id)
	}
}

// stopHere stops the detached turn writing the message if it runs here.
func (s *Service) stopHere(messageID int64) {
	s.detached.mu.Lock()
	r := s.detached.byMessage[messageID]
	s.detached.mu.Unlock()
	if r != nil {
		r.cancel()
	}
}

// beginRunning records a stored turn as running here.
func (r *Running) beginRunning(ctx context.Context) {
	s := r.svc
	s.startReplica()
	err := s.Chat.Store.BeginRunningTurn(ctx, store.RunningTurn{MessageID: r.Stored.MessageID, UserID: r.req.Caller.ID,
		ConversationID: r.Stored.Conversation.ID, Replica: s.Replica, Detached: r.req.Detach, Beat: store.Millis(time.Now())})
	if err != nil {
		// The turn runs on; only a replica starting meanwhile could take
		// it for one whose replica is gone.
		slog.Warn("record a running turn", "message", r.Stored.MessageID, "err", err)
	}
}

// endRunning records that a stored turn ended.
func (r *Running) endRunning() {
	ctx, done := context.WithTimeout(context.WithoutCancel(r.ctx), saveTimeout)
	defer done()
	if err := r.svc.Chat.Store.EndRunningTurn(ctx, r.Stored.MessageID); err != nil {
		slog.Warn("record a turn's end", "message", r.Stored.MessageID, "err", err)
	}
}

// elsewhereLimit refuses a turn when the user's turns here (this one
// counted) and on the other live replicas reach the stream limit. A
// database that cannot say lets the turn start: the limit here still holds.
func (s *Service) elsewhereLimit(ctx context.Context, userID int64) error {
	if s.Chat == nil || s.Chat.Store.Dialect() != store.DialectPostgres {
		return nil // SQLite has one process: the limit here is the limit
	}
	n, err := s.Chat.Store.CountRunningTurns(ctx, userID, s.Replica, time.Now().Add(-Lease))
	if err != nil || n == 0 {
		return nil
	}
	if here := s.streams.mine(userID); here+n > s.streams.max {
		return tooMany(s.streams.max)
	}
	return nil
}
