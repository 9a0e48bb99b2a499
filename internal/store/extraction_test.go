package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// Extraction claims take turns between users, a dead worker's claim is
// taken again once its lease ends, a stopped worker's goes back with its
// attempt, a failure stays with its reason until a new upload marks the
// file again.
func TestExtractionQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		file := func(user, name string) (int64, int64) {
			u := store.User{Username: user, PasswordHash: "h", Role: store.RoleUser}
			if existing, err := st.UserByUsername(ctx, user); err == nil {
				u = existing
			} else if err := st.CreateUser(ctx, &u); err != nil {
				t.Fatal(err)
			}
			root, err := st.EnsureRoot(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			n := store.Node{UserID: u.ID, ParentID: &root.ID, Name: name, Path: name, Kind: store.KindFile}
			if err := st.CreateNode(ctx, &n); err != nil {
				t.Fatal(err)
			}
			if err := st.MarkExtraction(ctx, u.ID, n.ID, 1); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Millisecond) // distinct waiting times
			return u.ID, n.ID
		}
		_, a1 := file("alice", "a1.pdf")
		_, a2 := file("alice", "a2.pdf")
		_, b1 := file("bob", "b1.pdf")
		claim := func(lease time.Duration) store.Extraction {
			t.Helper()
			e, err := st.ClaimExtraction(ctx, "w", lease)
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		first, second, third := claim(time.Hour), claim(time.Hour), claim(-time.Second)
		if first.NodeID != a1 || second.NodeID != b1 || third.NodeID != a2 {
			t.Fatalf("claim order %d %d %d, want alice's, bob's, alice's (%d %d %d)", first.NodeID, second.NodeID, third.NodeID, a1, b1, a2)
		}
		// third's lease is over: its worker died, another takes it.
		again := claim(time.Hour)
		if again.NodeID != a2 || again.Attempts != 2 {
			t.Fatalf("an expired claim: %+v", again)
		}
		if _, err := st.ClaimExtraction(ctx, "w", time.Hour); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a fourth claim: %v", err)
		}
		// Its worker says how far it has come; a new upload starts over.
		if err := st.ReportExtraction(ctx, again, 3, 10); err != nil {
			t.Fatal(err)
		}
		if e, err := st.ExtractionOf(ctx, a2); err != nil || e.PagesRead != 3 || e.PagesOf != 10 {
			t.Fatalf("reported 3 of 10: %+v %v", e, err)
		}
		if err := st.MarkExtraction(ctx, again.UserID, a2, 5); err != nil {
			t.Fatal(err)
		}
		if e, err := st.ExtractionOf(ctx, a2); err != nil || e.PagesRead != 0 || e.PagesOf != 0 || e.State != store.ExtractionPending {
			t.Fatalf("marked again: %+v %v", e, err)
		}
		if err := st.ReportExtraction(ctx, again, 4, 10); err != nil {
			t.Fatal(err)
		}
		if e, _ := st.ExtractionOf(ctx, a2); e.PagesRead != 0 {
			t.Fatalf("the old upload's worker reported on the new one: %+v", e)
		}
		if e := claim(time.Hour); e.NodeID != a2 || e.VersionID != 5 {
			t.Fatalf("the new upload: %+v", e)
		}
		if err := st.ReleaseExtraction(ctx, first); err != nil {
			t.Fatal(err)
		}
		if e, err := st.ExtractionOf(ctx, a1); err != nil || e.State != store.ExtractionPending || e.Attempts != 0 {
			t.Fatalf("released: %+v %v", e, err)
		}
		if err := st.FailExtraction(ctx, second, "encrypted", "the PDF is password-protected"); err != nil {
			t.Fatal(err)
		}
		if e, err := st.ExtractionOf(ctx, b1); err != nil || e.State != store.ExtractionFailed || e.ErrorMessage != "the PDF is password-protected" {
			t.Fatalf("failed: %+v %v", e, err)
		}
		if e := claim(time.Hour); e.NodeID != a1 {
			t.Fatalf("a failed file was claimed: %+v", e)
		}
		if err := st.MarkExtraction(ctx, second.UserID, b1, 2); err != nil {
			t.Fatal(err)
		}
		if e := claim(time.Hour); e.NodeID != b1 || e.VersionID != 2 {
			t.Fatalf("a new upload of a failed file: %+v", e)
		}
	})
}
