package knowledge

import (
	"context"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// MaxFilesPage bounds one page of Files.
const MaxFilesPage = 200

// FileEntry is one file of a flat walk.
type FileEntry struct {
	URI  string
	Name string
	Size int64
	Node store.Node
}

// FilesPage is one page of the caller's files in path order; Next is the
// path to pass as after for the page that follows, "" at the end.
type FilesPage struct {
	Files []FileEntry
	Next  string
}

// Files walks every file of the caller's own tree, as the authorizer lets
// the caller read it, in byte-wise path order after the path after. Paging
// by path means a file created between two pages is listed once or not at
// all, never twice (MCP's resources/list).
func (t *Tree) Files(ctx context.Context, c kb.Caller, after string, limit int) (FilesPage, error) {
	if limit < 1 || limit > MaxFilesPage {
		limit = MaxFilesPage
	}
	// The walk below reads the store directly, so a scoped token's walk
	// must start at its folder, not at a root that merely lists it.
	u, root, err := t.Resolve(ctx, c, c.RootURI())
	if err != nil {
		return FilesPage{}, err
	}
	ns, err := t.st.WalkFiles(ctx, store.FindFiles{UserID: root.UserID, Dir: root.Path, After: after, Limit: limit + 1})
	if err != nil {
		return FilesPage{}, apierr.Internal("walk files", err)
	}
	var out FilesPage
	if len(ns) > limit {
		ns = ns[:limit]
		out.Next = ns[limit-1].Path
	}
	for _, n := range ns {
		out.Files = append(out.Files, FileEntry{URI: kb.NodeURI(u.Username, n.Path, false), Name: n.Name, Size: n.Size, Node: n})
	}
	return out, nil
}
