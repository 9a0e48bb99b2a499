// Package turn runs one KnowAgent turn for any front door: it holds the
// per-user stream limit, opens the scope (or the stored conversation), runs
// the agent into a feed its door writes, and when the turn ends records
// and stores the outcome. The native SSE stream and the OpenAI-compatible endpoint both
// call it, so a turn behaves the same whichever door it came through.
package turn

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Request bounds, the same for every door: checked before a turn starts.
const (
	MaxMessageChars = 32_000
	MaxHistoryItems = 200
	MaxHistoryBytes = 512 << 10
	// eventQueue lets the runner run ahead of a slow client; the writer
	// sends what is queued in one write, so a short queue costs no
	// throughput.
	eventQueue = 16
	// saveTimeout bounds a turn's final write, retries included.
	saveTimeout = 10 * time.Second
)

// Service starts turns. One per server, shared by every door, so the
// stream limit counts a user's turns whichever door they came through.
type Service struct {
	Tree *knowledge.Tree
	// Chat keeps conversations; nil stores none and a turn's history is
	// the one it was given.
	Chat *chat.Service
	// Budget refuses a turn whose user's usage budget is spent; nil
	// checks none.
	Budget Budget
	// DetachedTimeout ends a detached turn nobody has followed this long
	// (default DefaultDetachedTimeout); Shutdown, when it closes, ends
	// every detached turn as the server stops.
	DetachedTimeout time.Duration
	Shutdown        <-chan struct{}
	// Replica names this server among those sharing the database: the
	// running turns it records are its own (a random id per start).
	Replica string
	// JournalBytes bounds a detached turn's events kept in memory
	// (default DefaultJournalBytes); older ones are read from the table.
	JournalBytes int
	streams      *streamRegistry
	detached     detachedTurns
	wakers       wakers
	replicaOnce  sync.Once
	stopOnce     sync.Once
	stopCtx      context.Context
}

// Budget is the usage limits a turn is admitted under before it starts.
// Admit's context counts the turn's calls; done is called once as the
// turn ends.
type Budget interface {
	Admit(ctx context.Context, userID int64) (_ context.Context, done func(), _ error)
}

// New builds the service; streamsPerUser <= 0 means DefaultStreamsPerUser.
func New(tree *knowledge.Tree, conversations *chat.Service, streamsPerUser int) *Service {
	return &Service{Tree: tree, Chat: conversations, streams: newStreamRegistry(streamsPerUser), detached: detachedTurns{byMessage: map[int64]*Running{}},
		Replica: newReplicaID()}
}

// Request is one question, already validated by the door.
type Request struct {
	Caller    kb.Caller
	RequestID string // for the turn's log line
	Model     *llm.Model
	URI       string // the scope; ignored when continuing a conversation
	Message   string
	History   []chat.HistoryItem
	// ConversationID continues a stored conversation: its stored messages
	// are the history and History is ignored.
	ConversationID int64
	// Temporary stores nothing, even when conversations are kept.
	Temporary bool
	// Purpose is what usage accounting files the turn's calls under
	// (default chat; the OpenAI-compatible door says openai).
	Purpose    llm.Purpose
	Regenerate int64
	Edit       int64
	// Detach makes the turn the server's: it runs on when its client goes
	// away, keeps its events for any client that follows it (Follow), and
	// ends at its own end, at Stop, or after DetachedTimeout unwatched. It
	// needs a stored conversation, whose answer message names the turn.
	Detach bool
}

// Running is a started turn. Its door writes Feed until it ends, and
// closes it when done or when its client leaves, which ends the turn.
type Running struct {
	ID    string
	Scope kb.Scope
	// Stored is the conversation the turn writes to; nil when not stored.
	Stored *chat.Turn

	ctx      context.Context
	cancel   context.CancelFunc
	release  func()
	finished chan struct{}
	record   turnRecord
	// stored says the answer's final write was made (or given up) before
	// the turn's last event went out; end then writes nothing.
	stored bool
	req    Request
	svc    *Service
	// journal keeps a detached turn's events; nil for one its door ends.
	journal *journal
	// queue carries an attached turn's events to its door.
	queue *queue
	// persist writes the journal's events to the table.
	persist *persister
	// shutdown says the server's stop ended the turn.
	shutdown atomic.Bool
	// stopReason says why a detached turn was stopped when it was not
	// Stop (nil then): kept with the stopped answer.
	stopReason *chat.Error
}

// Start opens the turn: everything that can be refused (the stream limit,
// the scope, a stored conversation's state) is refused here, before the
// door writes a byte, and the agent runs from then on.
func (s *Service) Start(ctx context.Context, req Request) (_ *Running, err error) {
	purpose := req.Purpose
	if purpose == "" {
		purpose = llm.PurposeChat
	}
	if req.Detach && (s.Chat == nil || req.Temporary) {
		return nil, apierr.BadRequest(apierr.CodeInvalidRequest, "detach needs a stored conversation: it is how the answer is found again")
	}
	settle := func() {}
	if s.Budget != nil {
		if ctx, settle, err = s.Budget.Admit(ctx, req.Caller.ID); err != nil {
			return nil, err
		}
	}
	// The request ending does not end the turn: a detached one is the
	// server's, and an attached one ends when its door's writer leaves
	// (its feed's Close), which may be after the handler has returned.
	ctx = context.WithoutCancel(ctx)
	ctx, cancel := context.WithCancel(llm.WithAttribution(ctx, llm.Attribution{UserID: req.Caller.ID, Purpose: purpose}))
	leave, err := s.streams.enter(req.Caller.ID, cancel)
	if err != nil {
		cancel()
		settle()
		return nil, err
	}
	release := func() {
		leave()
		settle()
	}
	if err := s.elsewhereLimit(ctx, req.Caller.ID); err != nil {
		release()
		cancel()
		return nil, err
	}
	defer func() {
		if err != nil {
			release()
			cancel()
		}
	}()
	model := req.Model
	t := agent.Turn{ID: newTurnID(), Message: req.Message}
	run := &Running{ID: t.ID, ctx: ctx, cancel: cancel, release: release, finished: make(chan struct{}), req: req, svc: s}
	if s.Chat != nil && !req.Temporary {
		// The user message is stored, and the answer opened as streaming,
		// before the first byte: a refusal is still an error answer.
		tr := chat.TurnRequest{ConversationID: req.ConversationID, URI: req.URI,
			Message: req.Message, Regenerate: req.Regenerate, Edit: req.Edit, ModelID: model.Meta().ID}
		if req.ConversationID == 0 {
			tr.Seed = req.History
		}
		st, err := s.Chat.Begin(ctx, req.Caller, tr)
		if err != nil {
			return nil, err
		}
		run.Stored, run.Scope, t.Message = &st, st.Scope, st.Message
		t.Stored = agent.StoredTurn{ConversationID: st.Conversation.ID, UserMessageID: st.UserMessageID, MessageID: st.MessageID}
		t.History = toLLM(st.History)
		run.beginRunning(ctx)
	} else {
		if req.ConversationID != 0 {
			return nil, ConversationsOff()
		}
		run.Scope, err = s.Tree.OpenScope(ctx, req.Caller, req.URI)
		if err != nil {
			return nil, err
		}
		t.History = toLLM(req.History)
	}
	t.ScopeURI = run.Scope.URI
	tools := agent.KnowledgeTools{Tree: s.Tree, Caller: req.Caller, Scope: run.Scope}
	runner := &agent.Runner{Model: model, Limits: agent.DefaultLimits}
	if model.Meta().NativeTools {
		runner.Tools = tools
	} else {
		t.Material = tools.Material(ctx)
	}
	if req.Detach {
		run.journal = newJournal(time.Now(), s.JournalBytes)
		run.persist = newPersister(run)
		s.detached.add(t.Stored.MessageID, run)
		s.sweepDetached()
		go run.runDetached(runner, t)
		return run, nil
	}
	run.queue = newQueue(cancel)
	go run.runAttached(runner, t)
	return run, nil
}

// Feed is the turn's events for its door to write: an attached turn's
// queue, or a detached turn's journal from its start. Closing it before
// the end ends an attached turn; a detached one runs on.
func (r *Running) Feed() agent.Feed {
	if r.queue != nil {
		return r.queue
	}
	return r.follow(0)
}

// runAttached runs the turn for its door's writer, and ends it when the
// runner returns: at its end, when the writer leaves, or when the server
// stops, which it says to the client.
func (r *Running) runAttached(runner *agent.Runner, t agent.Turn) {
	unhook := context.AfterFunc(r.svc.stopping(), func() {
		r.shutdown.Store(true)
		r.cancel()
	})
	r.run(runner, t, func(e agent.Event) { r.queue.put(r.ctx, e) })
	unhook()
	r.end(r.shutdown.Load())
	r.queue.close()
}

// run runs the turn, handing each event to out; a turn stopped before its
// end says why, as its last.
func (r *Running) run(runner *agent.Runner, t agent.Turn, out func(agent.Event)) {
	ended := false
	runner.Run(r.ctx, t, func(e agent.Event) {
		r.record.observe(e)
		if e.Name == agent.EventDone || e.Name == agent.EventError {
			e, ended = r.store(e), true
		}
		out(e)
	})
	if !ended {
		// Stopped, timed out, left or cut by the server's stop: the runner
		// said nothing more.
		e := agent.Event{Name: agent.EventError, Data: agent.ErrorData{Code: "stopped", Message: "the answer was stopped before it ended"}}
		if r.stopReason != nil {
			e.Data = agent.ErrorData{Code: r.stopReason.Code, Message: r.stopReason.Message}
		}
		if r.shutdown.Load() {
			e.Data = agent.ShutdownError
		}
		out(e)
	}
	close(r.finished)
}

// stopping ends when the server stops (Shutdown closes); without
// Shutdown, never: the service lives as long as its process.
func (s *Service) stopping() context.Context {
	s.stopOnce.Do(func() {
		s.stopCtx = context.Background()
		if s.Shutdown == nil {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		s.stopCtx = ctx
		go func() {
			<-s.Shutdown
			cancel()
		}()
	})
	return s.stopCtx
}

// end stops the turn (the turn, its upstream request and any running tool
// stop with it), counts and logs it, stores the answer of a stored turn,
// and frees its stream. shutdown says the server's stop ended it. The
// outcome is what the turn produced.
func (r *Running) end(shutdown bool) chat.Outcome {
	r.cancel()
	<-r.finished
	defer r.release()
	outcome := r.record.outcome(shutdown)
	if outcome.Status == store.MessageStopped && r.stopReason != nil {
		outcome.Error = r.stopReason
	}
	r.record.report(r.req.RequestID, r.ID, r.req.Model.Meta().ID, r.req.Caller.ID, outcome)
	if r.Stored != nil && !r.stored {
		r.save(outcome)
	}
	if r.Stored != nil && r.journal == nil {
		r.endRunning()
	}
	return outcome
}

// store writes a stored turn's answer before its last event goes out, so
// the client is told done only for an answer that was kept. When the write
// fails, done becomes an error and the turn is recorded as failed; an error
// stays the error it was.
func (r *Running) store(last agent.Event) agent.Event {
	if r.Stored == nil {
		return last
	}
	r.stored = true
	if r.save(r.record.outcome(false)) || last.Name == agent.EventError {
		return last
	}
	e := agent.Event{Name: agent.EventError, Data: agent.ErrorData{Code: "answer_not_saved",
		Message: "the answer could not be saved: the database failed as it ended; ask again in a moment"}}
	r.record.observe(e)
	return e
}

// save writes the outcome of a stored turn, whoever ended it: a client
// that left or a stopped server does not lose the answer.
func (r *Running) save(o chat.Outcome) bool {
	ctx, done := context.WithTimeout(context.WithoutCancel(r.ctx), saveTimeout)
	defer done()
	if err := r.svc.Chat.Finish(ctx, *r.Stored, o); err != nil {
		slog.Error("store the answer", "conversation", r.Stored.Conversation.ID, "message", r.Stored.MessageID, "err", err)
		return false
	}
	return true
}

// EndUser ends every open turn of the user (the account was disabled).
func (s *Service) EndUser(userID int64) { s.streams.endUser(userID) }

// Open is the number of turns streaming on this replica.
func (s *Service) Open() int { return s.streams.count() }

// ConversationsOff answers when the server keeps no conversations
// (conversations: {store: false}).
func ConversationsOff() error {
	return apierr.BadRequest(apierr.CodeConversationsDisabled, "this server keeps no conversations (conversations.store is false); history lives in the page only")
}

func toLLM(items []chat.HistoryItem) []llm.Message {
	out := make([]llm.Message, 0, len(items))
	for _, m := range items {
		out = append(out, llm.Message{Role: llm.Role(m.Role), Content: m.Content})
	}
	return out
}

func newReplicaID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func newTurnID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "turn_" + hex.EncodeToString(b)
}
