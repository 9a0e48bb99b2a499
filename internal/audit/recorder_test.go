package audit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestRecordFillsFromTheActorAndLogsOneLine: an event takes who and from
// where from the request's actor, is stored once, and becomes one JSON
// log line with the same fields.
func TestRecordFillsFromTheActorAndLogsOneLine(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		st, _ := storetest.Open(t, dialect)
		var buf bytes.Buffer
		rec := audit.New(st, audit.Options{Log: slog.New(slog.NewJSONHandler(&buf, nil))})
		ctx := audit.WithActor(context.Background(), audit.Actor{UserID: 7, Username: "alice", TokenID: 3, ClientAddr: "203.0.113.9"})
		ev := audit.Event{Action: audit.ShareChange, Target: "kb://alice/a", Before: audit.JSON(map[string]string{"role": "read"}),
			After: audit.JSON(map[string]string{"role": "write"})}
		if err := rec.Record(ctx, ev.WithError(apierr.Forbidden(apierr.CodeNotOwner, "no"))); err != nil {
			t.Fatal(err)
		}
		es, next, err := rec.List(context.Background(), audit.Filter{})
		if err != nil || next != "" || len(es) != 1 {
			t.Fatalf("list: %v %q %+v", err, next, es)
		}
		e := es[0]
		if e.UserID != 7 || e.Username != "alice" || e.TokenID != 3 || e.ClientAddr != "203.0.113.9" || e.Result != audit.Refused ||
			e.Code != "not_owner" || string(e.Before) != `{"role":"read"}` || string(e.After) != `{"role":"write"}` || e.At.IsZero() {
			t.Errorf("stored event %+v", e)
		}
		var line map[string]any
		if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
			t.Fatalf("log line %q: %v", buf.String(), err)
		}
		if bytes.Count(buf.Bytes(), []byte("\n")) != 1 || line["msg"] != "audit" || line["action"] != "share_change" ||
			line["username"] != "alice" || line["audit_id"] != float64(e.ID) || line["client_addr"] != "203.0.113.9" {
			t.Errorf("log line %s", buf.String())
		}
		if err := rec.Record(ctx, audit.Event{Action: "made_up"}); err == nil {
			t.Errorf("an action outside the set was recorded")
		}
		if _, _, err := rec.List(context.Background(), audit.Filter{Actions: []audit.Action{"made_up"}}); apierr.From(err).Code != apierr.CodeInvalidAction {
			t.Errorf("filter by an unknown action: %v", err)
		}
		if _, _, err := rec.List(context.Background(), audit.Filter{Cursor: "o1.3"}); apierr.From(err).Code != apierr.CodeInvalidCursor {
			t.Errorf("a foreign cursor: %v", err)
		}
	})
}

// TestRecordKeepsHostileTargets: a request naming a path with a NUL or
// bytes that are not UTF-8 is recorded all the same (PostgreSQL refuses
// such text), its odd bytes written as %XX so the log shows what was asked;
// an attacker cannot keep an attempt out of the log by spelling it so.
func TestRecordKeepsHostileTargets(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		st, _ := storetest.Open(t, dialect)
		rec := audit.New(st, audit.Options{})
		ctx := audit.WithActor(context.Background(), audit.Actor{UserID: 3, Username: "mallory\xff", ClientAddr: "203.0.113.9"})
		for _, target := range []string{"kb://users/alice/secret/plan.md\x00", "kb://users/alice/secret/\xc0\xae\xc0\xae/plan.md"} {
			if err := rec.Record(ctx, audit.Event{Action: audit.Delete, Target: target}.WithError(apierr.NotFound(apierr.CodeNotFound, "no"))); err != nil {
				t.Fatalf("%q: %v", target, err)
			}
		}
		es, _, err := rec.List(context.Background(), audit.Filter{})
		if err != nil || len(es) != 2 {
			t.Fatalf("list: %v %+v", err, es)
		}
		got := map[string]bool{es[0].Target: true, es[1].Target: true}
		if !got["kb://users/alice/secret/plan.md%00"] || !got["kb://users/alice/secret/%C0%AE%C0%AE/plan.md"] || es[0].Username != "mallory%FF" {
			t.Errorf("recorded %q %q by %q", es[0].Target, es[1].Target, es[0].Username)
		}
	})
}
