package knowledge

import (
	"context"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Names of a folder's generated digests (SPEC §7): compile writes them into
// the folder that receives the folder's summaries.
const (
	OverviewName = ".overview.md" // L1
	AbstractName = ".abstract.md" // L0
)

// MaxAbstractChars bounds the abstract a listing carries per folder, so a
// page of folders stays well under the tool-result ceiling.
const MaxAbstractChars = 300

// abstractReadBytes is how much of an abstract file is read: its front
// matter plus MaxAbstractChars of text, in any script.
const abstractReadBytes = 4 << 10

// OutputFolder is where caller c's default compile of folder path of
// owner's tree puts its output: the folder mirrored below the caller's
// wiki/, or below wiki/shared/<owner>/ for a folder shared with them, as
// summaries are the caller's own. A scoped token's wiki/ is the one inside
// its scope folder, the only place it can read what it made. A folder
// already inside that wiki/ holds its own digests.
func OutputFolder(c kb.Caller, owner, path string) string {
	if owner != c.Username {
		return joinPath(GeneratedRoot+"/shared/"+owner, path)
	}
	root, rel := GeneratedRoot, path
	if c.Scoped() && c.InScope(path) {
		root = joinPath(c.ScopePath, GeneratedRoot)
		rel = strings.TrimPrefix(strings.TrimPrefix(path, c.ScopePath), "/")
	}
	if access.Within(path, root) {
		return path
	}
	return joinPath(root, rel)
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	if name == "" {
		return dir
	}
	return dir + "/" + name
}

// folderLayer is what a listing shows of a folder's compiled digests.
type folderLayer struct {
	abstract    string
	overviewURI string
}

// layerDir names a folder of some owner's tree whose layers a listing shows.
type layerDir struct {
	owner kb.Caller
	path  string
}

// folderLayers finds the caller's digests of the given folders in one query
// for the files and one for the abstracts' bodies, keyed by the index of
// the folder in dirs.
func (t *Tree) folderLayers(ctx context.Context, c kb.Caller, dirs []layerDir) (map[int]folderLayer, error) {
	out := map[int]folderLayer{}
	if len(dirs) == 0 {
		return out, nil
	}
	byLayer := make(map[string][]int, len(dirs))
	paths := make([]string, 0, 2*len(dirs))
	for i, d := range dirs {
		lp := OutputFolder(c, d.owner.Username, d.path)
		if _, ok := byLayer[lp]; !ok {
			paths = append(paths, joinPath(lp, OverviewName), joinPath(lp, AbstractName))
		}
		byLayer[lp] = append(byLayer[lp], i)
	}
	ns, err := t.st.NodesByPaths(ctx, c.ID, paths)
	if err != nil {
		return nil, err
	}
	abstracts := map[int64][]int{}
	var ids []int64
	for _, n := range ns {
		if !n.Generated || n.IsDir() {
			continue // a user's own file of that name is not a digest
		}
		at := byLayer[strings.TrimSuffix(n.Path, "/"+n.Name)]
		switch n.Name {
		case OverviewName:
			for _, i := range at {
				l := out[i]
				l.overviewURI = kb.NodeURI(c.Username, n.Path, false)
				out[i] = l
			}
		case AbstractName:
			abstracts[n.ID] = at
			ids = append(ids, n.ID)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	bodies, err := t.st.LatestBodies(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id, at := range abstracts {
		v, ok := bodies[id][store.BodyRaw]
		if !ok {
			continue
		}
		text, err := t.blobPrefix(v.BlobHash, abstractReadBytes)
		if err != nil {
			return nil, err
		}
		for _, i := range at {
			l := out[i]
			l.abstract = clip(strings.TrimSpace(StripFrontMatter(text)), MaxAbstractChars)
			out[i] = l
		}
	}
	return out, nil
}

func (t *Tree) blobPrefix(hash string, max int64) (string, error) {
	f, err := t.blobs.Open(hash)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max))
	return strings.ToValidUTF8(string(b), ""), err
}

// clip keeps the first max characters of s, ending with … when it cut.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:max-1])) + "…"
}

// StripFrontMatter drops a generated file's leading "---" provenance block.
func StripFrontMatter(s string) string {
	if !strings.HasPrefix(s, "---\n") {
		return s
	}
	if i := strings.Index(s[4:], "\n---\n"); i >= 0 {
		return strings.TrimLeft(s[4+i+5:], "\n")
	}
	return s
}
