package audit

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Limits on what one event keeps: a target is a name, and before and
// after are a few settings; anything longer was not meant for the log.
const (
	maxTarget   = 1024
	maxSettings = 4096
	// DefaultPage and MaxPage bound a listing.
	DefaultPage = 100
	MaxPage     = 1000
)

// Options configure a Recorder.
type Options struct {
	// Log, when set, gets one line per event (the server passes its
	// logger when log_format is json).
	Log *slog.Logger
}

// Recorder appends events to the log. A nil Recorder records nothing, so
// a service built without one still works.
type Recorder struct {
	st  *store.Store
	log *slog.Logger
	now func() time.Time
}

// New builds a recorder writing to st.
func New(st *store.Store, o Options) *Recorder {
	return &Recorder{st: st, log: o.Log, now: time.Now}
}

// WithError sets the event's result from the error its action ended with:
// nil is OK, a refusal (4xx) is Refused and a fault Failed, with the code.
func (e Event) WithError(err error) Event {
	if err == nil {
		e.Result, e.Code = OK, ""
		return e
	}
	ae := apierr.From(err)
	e.Result, e.Code = Refused, ae.Code.String()
	if ae.Status >= 500 {
		e.Result = Failed
	}
	return e
}

// Record appends e, completed from the context's Actor and stamped now
// (unless e.At is set). The action has happened by then, so a failure to
// record is logged and returned but never undoes it; the write outlives a
// cancelled request for the same reason.
func (r *Recorder) Record(ctx context.Context, e Event) error {
	if r == nil {
		return nil
	}
	if !Known(e.Action) {
		return fmt.Errorf("audit: unknown action %q", e.Action)
	}
	ActorFrom(ctx).fill(&e)
	if e.At.IsZero() {
		e.At = r.now()
	}
	e.At = e.At.UTC().Truncate(time.Microsecond)
	if e.Result == "" {
		e.Result = OK
	}
	e.Target = kb.Clip(printable(e.Target), maxTarget)
	e.Username, e.Provider, e.Source, e.ClientAddr = printable(e.Username), printable(e.Provider), printable(e.Source), printable(e.ClientAddr)
	e.Before, e.After = small(e.Before), small(e.After)
	row := toRow(e)
	if err := r.st.AppendAuditEvent(context.WithoutCancel(ctx), &row); err != nil {
		slog.Error("audit event not recorded", "action", e.Action, "user_id", e.UserID, "target", e.Target, "err", err)
		return fmt.Errorf("record audit event %s: %w", e.Action, err)
	}
	e.ID = row.ID
	if r.log != nil {
		r.log.LogAttrs(ctx, slog.LevelInfo, "audit", attrs(e)...)
	}
	return nil
}

// small keeps settings that are JSON and short; others become a note.
func small(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	if len(b) > maxSettings || !json.Valid(b) {
		return json.RawMessage(`{"omitted":"too large or not JSON"}`)
	}
	return b
}

func attrs(e Event) []slog.Attr {
	as := []slog.Attr{slog.Int64("audit_id", e.ID), slog.String("action", string(e.Action)), slog.String("result", string(e.Result)),
		slog.Time("at", e.At)}
	for _, kv := range [][2]string{{"username", e.Username}, {"provider", e.Provider}, {"target", e.Target},
		{"source", e.Source}, {"client_addr", e.ClientAddr}, {"code", e.Code}} {
		if kv[1] != "" {
			as = append(as, slog.String(kv[0], kv[1]))
		}
	}
	if e.UserID != 0 {
		as = append(as, slog.Int64("user_id", e.UserID))
	}
	if e.TokenID != 0 {
		as = append(as, slog.Int64("token_id", e.TokenID))
	}
	if e.Before != nil {
		as = append(as, slog.Any("before", e.Before))
	}
	if e.After != nil {
		as = append(as, slog.Any("after", e.After))
	}
	return as
}

// Filter narrows a listing; zero fields match every event.
type Filter struct {
	UserID  int64
	Actions []Action
	Since   time.Time // at or after
	Until   time.Time // before
	Cursor  string    // a next cursor List returned
	Limit   int       // 0: DefaultPage
}

// List returns the events f matches, newest first, and the cursor of the
// next page ("" on the last).
func (r *Recorder) List(ctx context.Context, f Filter) ([]Event, string, error) {
	if f.Limit < 0 || f.Limit > MaxPage {
		return nil, "", apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d", MaxPage)
	}
	if f.Limit == 0 {
		f.Limit = DefaultPage
	}
	sf := store.AuditFilter{UserID: f.UserID, Since: f.Since, Until: f.Until, Limit: f.Limit + 1}
	for _, a := range f.Actions {
		if !Known(a) {
			return nil, "", apierr.BadRequest(apierr.CodeInvalidAction, "action %q is not one of the audit log's actions", kb.Clip(string(a), 40))
		}
		sf.Actions = append(sf.Actions, string(a))
	}
	if f.Cursor != "" {
		id, err := decodeCursor(f.Cursor)
		if err != nil {
			return nil, "", err
		}
		sf.BeforeID = id
	}
	rows, err := r.st.ListAuditEvents(ctx, sf)
	if err != nil {
		return nil, "", apierr.Internal("list audit events", err)
	}
	next := ""
	if len(rows) > f.Limit {
		rows = rows[:f.Limit]
		next = encodeCursor(rows[len(rows)-1].ID)
	}
	out := make([]Event, len(rows))
	for i, row := range rows {
		out[i] = fromRow(row)
	}
	return out, next, nil
}

// Expire deletes the events older than retention and says how many went.
func (r *Recorder) Expire(ctx context.Context, retention time.Duration) (int64, error) {
	if r == nil || retention <= 0 {
		return 0, nil
	}
	return r.st.DeleteAuditEventsBefore(store.Background(ctx), r.now().Add(-retention))
}

// cursorPrefix marks this list's cursors, so another list's is refused.
const cursorPrefix = "a1."

func encodeCursor(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(id, 10)))
}

func decodeCursor(raw string) (int64, error) {
	b, err := base64.RawURLEncoding.DecodeString(raw)
	s, ok := strings.CutPrefix(string(b), cursorPrefix)
	id, perr := strconv.ParseInt(s, 10, 64)
	if errors.Join(err, perr) != nil || !ok || id <= 0 {
		return 0, apierr.BadRequest(apierr.CodeInvalidCursor, "cursor is not one this API returned; start again without it")
	}
	return id, nil
}

func toRow(e Event) store.AuditEvent {
	row := store.AuditEvent{At: e.At, Username: e.Username, Provider: e.Provider, Action: string(e.Action), Target: e.Target,
		Source: e.Source, ClientAddr: e.ClientAddr, Result: string(e.Result), Code: e.Code}
	if e.UserID != 0 {
		row.UserID = &e.UserID
	}
	if e.TokenID != 0 {
		row.TokenID = &e.TokenID
	}
	if e.Before != nil {
		s := string(e.Before)
		row.BeforeJSON = &s
	}
	if e.After != nil {
		s := string(e.After)
		row.AfterJSON = &s
	}
	return row
}

func fromRow(row store.AuditEvent) Event {
	e := Event{ID: row.ID, At: row.At.UTC(), Username: row.Username, Provider: row.Provider, Action: Action(row.Action),
		Target: row.Target, Source: row.Source, ClientAddr: row.ClientAddr, Result: Result(row.Result), Code: row.Code}
	if row.UserID != nil {
		e.UserID = *row.UserID
	}
	if row.TokenID != nil {
		e.TokenID = *row.TokenID
	}
	if row.BeforeJSON != nil {
		e.Before = json.RawMessage(*row.BeforeJSON)
	}
	if row.AfterJSON != nil {
		e.After = json.RawMessage(*row.AfterJSON)
	}
	return e
}
