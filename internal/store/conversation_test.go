package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestConversationsPerUserVersionsAndInterrupt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		var users []store.User
		for _, name := range []string{"alice", "bob"} {
			u := store.User{Username: name, PasswordHash: "h", Role: store.RoleUser}
			if err := st.CreateUser(ctx, &u); err != nil {
				t.Fatal(err)
			}
			users = append(users, u)
		}
		alice, bob := users[0], users[1]
		mine := store.Conversation{UserID: alice.ID, URI: "kb://users/alice/", Title: "100% sure_thing"}
		other := store.Conversation{UserID: alice.ID, URI: "kb://users/alice/notes/", Title: "100 percent"}
		theirs := store.Conversation{UserID: bob.ID, URI: "kb://users/alice/", Title: "100% sure_thing"}
		for _, c := range []*store.Conversation{&mine, &other, &theirs} {
			if err := st.CreateConversation(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.ConversationOf(ctx, bob.ID, mine.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("bob reads alice's conversation: %v", err)
		}
		list := func(q store.ConversationQuery) []int64 {
			t.Helper()
			q.Limit = 10
			rows, err := st.ListConversations(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, r := range rows {
				ids = append(ids, r.ID)
			}
			return ids
		}
		if got := list(store.ConversationQuery{UserID: alice.ID}); len(got) != 2 || got[0] != other.ID {
			t.Fatalf("alice's list %v", got)
		}
		// LIKE wildcards in the query are literal characters.
		if got := list(store.ConversationQuery{UserID: alice.ID, Text: "0% SURE_"}); len(got) != 1 || got[0] != mine.ID {
			t.Fatalf("literal search %v", got)
		}
		if got := list(store.ConversationQuery{UserID: alice.ID, Text: "_"}); len(got) != 1 {
			t.Fatalf("underscore matched %v", got)
		}

		add := func(slot int, role, status, content string) store.ConversationMessage {
			m := store.ConversationMessage{ConversationID: mine.ID, Slot: slot, Role: role, Status: status, Content: content}
			if err := st.AddMessage(ctx, &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
		add(0, "user", store.MessageComplete, "q")
		a1 := add(1, "assistant", store.MessageComplete, "first")
		a2 := add(1, "assistant", store.MessageStreaming, "")
		if a1.Version != 1 || a2.Version != 2 || !a2.IsCurrent {
			t.Fatalf("versions %d %d", a1.Version, a2.Version)
		}
		cur, _ := st.Messages(ctx, mine.ID, false)
		if len(cur) != 2 || cur[1].ID != a2.ID {
			t.Fatalf("current %+v", cur)
		}
		if got := list(store.ConversationQuery{UserID: alice.ID, Text: "FIRST"}); len(got) != 1 || got[0] != mine.ID {
			t.Fatalf("search of an earlier version's text %v", got)
		}
		n, err := st.InterruptStreaming(ctx, "restarted", time.Now())
		if err != nil || n != 1 {
			t.Fatalf("interrupt %d %v", n, err)
		}
		m, _ := st.MessageByID(ctx, mine.ID, a2.ID)
		if m.Status != store.MessageFailed || m.ErrorCode != "interrupted" {
			t.Fatalf("interrupted %+v", m)
		}
		if err := st.DeleteConversation(ctx, mine.ID); err != nil {
			t.Fatal(err)
		}
		if rest, _ := st.Messages(ctx, mine.ID, true); len(rest) != 0 {
			t.Fatalf("messages outlive their conversation: %d", len(rest))
		}
	})
}
