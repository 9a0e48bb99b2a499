package knowledge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/scratch"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// newTestTree builds a tree on a real store with a user named name.
func newTestTree(t testing.TB, dialect string, names ...string) (*Tree, []kb.Caller, string) {
	t.Helper()
	st, dir := storetest.Open(t, dialect)
	blobs, err := blob.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tree := NewTree(st, blobs, 1<<20)
	var callers []kb.Caller
	for _, n := range names {
		u := store.User{Username: n, PasswordHash: "x", Role: store.RoleUser}
		if err := st.CreateUser(context.Background(), &u); err != nil {
			t.Fatal(err)
		}
		callers = append(callers, kb.Caller{ID: u.ID, Username: n})
	}
	return tree, callers, dir
}

func mustUpload(t testing.TB, tree *Tree, c kb.Caller, folder, name, body string) Item {
	t.Helper()
	s, err := tree.Stage(name, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	items, err := tree.CommitUpload(context.Background(), c, folder, []Staged{s}, ConflictReplace)
	if err != nil {
		t.Fatal(err)
	}
	return items[0]
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok || e.Code.String() != code {
		t.Fatalf("want error %s, got %v", code, err)
	}
}

func TestTreeOperations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, dir := newTestTree(t, dialect, "alice")
		a := cs[0]
		if _, err := tree.Mkdir(ctx, a, "kb://me/项目/deep/er/"); err != nil {
			t.Fatal(err)
		}
		_, err := tree.Mkdir(ctx, a, "kb://me/项目/deep/")
		wantCode(t, err, "already_exists")
		mustUpload(t, tree, a, "kb://me/项目/deep/", "a.md", "# A\n")
		mustUpload(t, tree, a, "kb://me/项目/deep/er/", "b.txt", "bee")
		_, err = tree.Mkdir(ctx, a, "kb://me/项目/deep/a.md/x/")
		wantCode(t, err, "not_a_folder")

		// Move the folder: every descendant follows, with multi-byte path prefixes.
		_, err = tree.Move(ctx, a, "kb://me/项目/deep/", "kb://me/归档/深/")
		wantCode(t, err, "not_found") // parent 归档 does not exist yet
		if _, err := tree.Mkdir(ctx, a, "kb://me/归档/"); err != nil {
			t.Fatal(err)
		}
		moved, err := tree.Move(ctx, a, "kb://me/项目/deep/", "kb://me/归档/深/")
		if err != nil {
			t.Fatal(err)
		}
		if moved.URI != "kb://users/alice/归档/深/" {
			t.Fatalf("moved to %s", moved.URI)
		}
		p, err := tree.ReadPage(ctx, a, "kb://me/归档/深/er/b.txt", 0, 0)
		if err != nil || p.Text != "bee" {
			t.Fatalf("child after move: %+v %v", p, err)
		}
		_, err = tree.ReadPage(ctx, a, "kb://me/项目/deep/er/b.txt", 0, 0)
		wantCode(t, err, "not_found")
		_, err = tree.Move(ctx, a, "kb://me/归档/", "kb://me/归档/深/er/x/")
		wantCode(t, err, "invalid_move")
		_, err = tree.Move(ctx, a, "kb://me/归档/深/a.md", "kb://me/归档/深/er/b.txt")
		wantCode(t, err, "already_exists")

		// Re-uploading a name makes a new version; deleting frees the blobs.
		mustUpload(t, tree, a, "kb://me/归档/深/", "a.md", "# A v2\n")
		p, _ = tree.ReadPage(ctx, a, "kb://me/归档/深/a.md", 0, 0)
		if p.Text != "# A v2\n" {
			t.Fatalf("new version not read: %q", p.Text)
		}
		if err := tree.Delete(ctx, a, "kb://me/归档/"); err != nil {
			t.Fatal(err)
		}
		_, err = tree.List(ctx, a, "kb://me/归档/深/", 0, 0)
		wantCode(t, err, "not_found")
		wantCode(t, tree.Delete(ctx, a, "kb://me/"), "invalid_delete")
		if left := scratch.Files(filepath.Join(dir, "tmp")); len(left) != 0 {
			t.Fatalf("staging not empty: %v", left)
		}
	})
}

func TestListPagingIsStable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, _ := newTestTree(t, dialect, "alice")
		a := cs[0]
		var want []string
		for i := 0; i < 7; i++ {
			name := fmt.Sprintf("f%02d.txt", 6-i)
			mustUpload(t, tree, a, "kb://me/", name, name)
		}
		for _, d := range []string{"zeta", "Alpha", "ärger"} {
			if _, err := tree.Mkdir(ctx, a, "kb://me/"+d); err != nil {
				t.Fatal(err)
			}
		}
		// Folders first, then files; byte-wise order on both dialects.
		want = []string{"Alpha", "zeta", "ärger", "f00.txt", "f01.txt", "f02.txt", "f03.txt", "f04.txt", "f05.txt", "f06.txt"}
		var got []string
		offset := 0
		for pages := 0; ; pages++ {
			l, err := tree.List(ctx, a, "kb://me/", offset, 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range l.Items {
				got = append(got, it.Name)
			}
			if l.NextOffset == nil {
				break
			}
			offset = *l.NextOffset
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("order %v want %v", got, want)
		}
		_, err := tree.List(ctx, a, "kb://me/", 0, MaxListLimit+1)
		wantCode(t, err, "invalid_limit")
		_, err = tree.List(ctx, a, "kb://me/f00.txt", 0, 0)
		wantCode(t, err, "not_a_folder")
	})
}

func TestUploadIsAllOrNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, dir := newTestTree(t, dialect, "alice")
		a := cs[0]
		if _, err := tree.Mkdir(ctx, a, "kb://me/taken/"); err != nil {
			t.Fatal(err)
		}
		ok, err := tree.Stage("fine.md", strings.NewReader("fine"))
		if err != nil {
			t.Fatal(err)
		}
		clash, err := tree.Stage("taken", strings.NewReader("clash"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = tree.CommitUpload(ctx, a, "kb://me/", []Staged{ok, clash}, ConflictReplace)
		wantCode(t, err, "already_exists")
		if _, _, err := tree.Resolve(ctx, a, "kb://me/fine.md"); err == nil {
			t.Fatal("a failed upload left fine.md behind")
		}
		// A reader that fails midway (a killed connection) stores nothing.
		_, err = tree.Stage("cut.md", io.MultiReader(strings.NewReader("partial"), errReader{}))
		wantCode(t, err, "upload_failed")
		_, err = tree.Stage("big.bin", strings.NewReader(strings.Repeat("x", 1<<20+1)))
		wantCode(t, err, "file_too_large")
		_, err = tree.Stage("../evil", strings.NewReader("x"))
		wantCode(t, err, "path_in_name")
		_, err = tree.StagePath("../evil", true, strings.NewReader("x"))
		wantCode(t, err, "invalid_name")
		if left := scratch.Files(filepath.Join(dir, "tmp")); len(left) != 0 {
			t.Fatalf("staging not empty: %v", left)
		}
	})
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func TestReadPageBodies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, _ := newTestTree(t, dialect, "alice")
		a := cs[0]
		mustUpload(t, tree, a, "kb://me/", "empty.md", "")
		mustUpload(t, tree, a, "kb://me/", "paper.pdf", "%PDF-1.7 binary")
		mustUpload(t, tree, a, "kb://me/", "latin1.txt", "caf\xe9")
		text := strings.Repeat("中😀e\u0301", 1500) // 6000 code points
		mustUpload(t, tree, a, "kb://me/", "mixed.md", text)

		p, err := tree.ReadPage(ctx, a, "kb://me/empty.md", 0, 0)
		if err != nil || p.Body != "raw" || p.Total != 0 || p.Text != "" || p.NextOffset != nil || p.Note == "" {
			t.Fatalf("empty: %+v %v", p, err)
		}
		p, err = tree.ReadPage(ctx, a, "kb://me/paper.pdf", 0, 0)
		if err != nil || p.Body != "none" || p.Text != "" || !strings.Contains(p.Note, "parse") {
			t.Fatalf("paper.pdf: %+v %v", p, err)
		}
		// Text in a legacy encoding is read decoded (see encoding_test.go).
		p, err = tree.ReadPage(ctx, a, "kb://me/latin1.txt", 0, 0)
		if err != nil || p.Body != "l2" || p.Text != "café" || p.Encoding != "windows-1252" {
			t.Fatalf("latin1.txt: %+v %v", p, err)
		}
		runes := []rune(text)
		p, err = tree.ReadPage(ctx, a, "kb://me/mixed.md", 0, MaxPageLimit)
		if err != nil || p.Text != text || p.NextOffset != nil || p.Total != int64(len(runes)) {
			t.Fatalf("full page at the limit: total %d next %v err %v", p.Total, p.NextOffset, err)
		}
		p, _ = tree.ReadPage(ctx, a, "kb://me/mixed.md", 0, 0)
		if int64(len([]rune(p.Text))) != DefaultPageLimit || *p.NextOffset != DefaultPageLimit {
			t.Fatalf("default page: %d chars", len([]rune(p.Text)))
		}
		p, err = tree.ReadPage(ctx, a, "kb://me/mixed.md", int64(len(runes)), 10)
		if err != nil || p.Text != "" || p.NextOffset != nil {
			t.Fatalf("offset == total: %+v %v", p, err)
		}
		for _, tc := range []struct {
			offset, limit int64
			code          string
		}{{0, MaxPageLimit + 1, "invalid_limit"}, {0, -1, "invalid_limit"}, {-1, 10, "invalid_offset"}, {int64(len(runes)) + 1, 10, "offset_out_of_range"}} {
			_, err := tree.ReadPage(ctx, a, "kb://me/mixed.md", tc.offset, tc.limit)
			wantCode(t, err, tc.code)
		}
		_, err = tree.ReadPage(ctx, a, "kb://me/", 0, 0)
		wantCode(t, err, "not_a_file")
	})
}

// TestDeleteFreesUnsharedBlobs: deleting a folder removes the bytes nothing
// else references (once past the grace period) and keeps shared ones.
func TestPurgingDeletedFreesUnsharedBlobs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, dir := newTestTree(t, dialect, "alice")
		a := cs[0]
		if _, err := tree.Mkdir(ctx, a, "kb://me/gone/"); err != nil {
			t.Fatal(err)
		}
		mustUpload(t, tree, a, "kb://me/gone/", "only.md", "only here")
		mustUpload(t, tree, a, "kb://me/gone/", "shared.md", "in two places")
		mustUpload(t, tree, a, "kb://me/", "copy.md", "in two places")
		old := time.Now().Add(-time.Hour)
		blobs, _ := filepath.Glob(filepath.Join(dir, "blobs", "*", "*"))
		for _, b := range blobs {
			os.Chtimes(b, old, old)
		}
		if err := tree.Delete(ctx, a, "kb://me/gone/"); err != nil {
			t.Fatal(err)
		}
		// The trash keeps the bytes until it is emptied.
		if kept, _ := filepath.Glob(filepath.Join(dir, "blobs", "*", "*[0-9a-f]")); len(kept) != 2 {
			t.Fatalf("%d blobs kept by the trash, want 2", len(kept))
		}
		if _, err := tree.PurgeTrash(ctx, a, 0); err != nil {
			t.Fatal(err)
		}
		left, _ := filepath.Glob(filepath.Join(dir, "blobs", "*", "*[0-9a-f]"))
		if len(left) != 1 {
			t.Fatalf("%d blobs left, want the shared one: %v", len(left), left)
		}
		if p, err := tree.ReadPage(ctx, a, "kb://me/copy.md", 0, 0); err != nil || p.Text != "in two places" {
			t.Fatalf("shared blob lost: %+v %v", p, err)
		}
	})
}
