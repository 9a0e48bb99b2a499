package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestGCRaceNeverLosesBytes replays the interleaving that used to lose data:
// purging the last reference to old content has counted no reference and is
// about to remove the bytes when another user uploads the same bytes. The
// upload must either wait for the removal or be seen by it; either way the
// new file stays readable.
func TestGCRaceNeverLosesBytes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, dir := knowledge.NewTestTree(t, dialect, "alice", "bob")
		alice, bob := cs[0], cs[1]
		const body = "the same bytes in two trees"
		knowledge.MustUpload(t, tree, alice, "kb://me/", "a.txt", body)
		// Age every blob past any grace period: the race needs old content.
		old := time.Now().Add(-time.Hour)
		filepath.WalkDir(filepath.Join(dir, "blobs"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				os.Chtimes(p, old, old)
			}
			return nil
		})
		uploaded := make(chan error, 1)
		fired := false
		tree.Blobs().BeforeRemove = func(string) {
			if fired {
				return
			}
			fired = true
			go func() {
				s, err := tree.Stage("b.txt", strings.NewReader(body))
				if err == nil {
					_, err = tree.CommitUpload(ctx, bob, "kb://me/", []knowledge.Staged{s}, knowledge.ConflictReplace)
				}
				uploaded <- err
			}()
			// A correct store makes the upload wait for this removal; give
			// a broken one every chance to finish first.
			select {
			case err := <-uploaded:
				uploaded <- err
			case <-time.After(500 * time.Millisecond):
			}
		}
		// Deleting moves to the trash; purging it drops the last reference.
		if err := tree.Delete(ctx, alice, "kb://me/a.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := trash.New(tree).PurgeTrash(ctx, alice, 0); err != nil {
			t.Fatal(err)
		}
		if !fired {
			t.Fatal("the purge removed no bytes, so the race was not replayed")
		}
		if err := <-uploaded; err != nil {
			t.Fatalf("upload during GC: %v", err)
		}
		p, err := tree.ReadPage(ctx, bob, "kb://me/b.txt", 0, 0)
		if err != nil || p.Text != body {
			t.Fatalf("read after the race: %q, %v", p.Text, err)
		}
		f, err := tree.OpenRaw(ctx, bob, "kb://me/b.txt")
		if err != nil {
			t.Fatalf("raw read after the race: %v", err)
		}
		f.Close()
	})
}
