package apptest

import (
	"bytes"
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
)

// Mkdir creates the folder uri (and its parents) for c.
func Mkdir(t testing.TB, tree *knowledge.Tree, c kb.Caller, uri string) {
	t.Helper()
	if _, err := tree.Mkdir(context.Background(), c, uri); err != nil {
		t.Fatalf("mkdir %s: %v", uri, err)
	}
}

// Put uploads content as the file name in folder (created when missing),
// replacing a file already there, and returns its uri.
func Put(t testing.TB, tree *knowledge.Tree, c kb.Caller, folder, name string, content []byte) string {
	t.Helper()
	ctx := context.Background()
	if _, _, err := tree.Resolve(ctx, c, folder); err != nil {
		Mkdir(t, tree, c, folder)
	}
	s, err := tree.Stage(name, bytes.NewReader(content))
	if err != nil {
		t.Fatalf("stage %s: %v", name, err)
	}
	items, err := tree.CommitUpload(ctx, c, folder, []knowledge.Staged{s}, knowledge.ConflictReplace)
	if err != nil {
		t.Fatalf("upload %s: %v", name, err)
	}
	return items[0].URI
}
