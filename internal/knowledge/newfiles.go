package knowledge

import (
	"context"
	"strings"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// newFiles are the files of an upload that land in folders the upload
// made: no name there can be taken, so they need no lookup, and their rows
// go in a few statements for all of them instead of about a dozen each —
// most of a large import's commit, where every statement is a round trip
// to PostgreSQL.
type newFiles struct {
	// bulk is off when the upload is at odds with itself (a file where
	// it also needs a folder): one at a time, such an upload fails with
	// the conflict named.
	bulk bool
	idx  []int        // positions in the upload
	dirs []store.Node // and the folder each lands in
}

func (n *newFiles) add(i int, dir store.Node) {
	n.idx = append(n.idx, i)
	n.dirs = append(n.dirs, dir)
}

// namesFolder tells whether a file of the upload has the path of a folder
// the upload needs.
func namesFolder(files []Staged, dirs [][]string) bool {
	folders := map[string]bool{}
	need := func(segs []string) {
		for i := range segs {
			folders[strings.Join(segs[:i+1], "/")] = true
		}
	}
	for _, d := range dirs {
		need(d)
	}
	for _, f := range files {
		need(f.Dir)
	}
	for _, f := range files {
		if folders[f.rel()] {
			return true
		}
	}
	return false
}

// putNewFiles writes news into the tree of c: their nodes, their first
// versions (and decoded texts), and their marks for extraction and the
// index, filling put at their positions.
func (t *Tree) putNewFiles(ctx context.Context, tx *store.Store, c kb.Caller, by *int64, news newFiles, files []Staged, texts []*decoded, put []store.Node) error {
	if len(news.idx) == 0 {
		return nil
	}
	nodes := make([]store.Node, len(news.idx))
	for j, i := range news.idx {
		info := files[i].pending.Info
		nodes[j] = store.Node{UserID: c.ID, ParentID: &news.dirs[j].ID, Name: files[i].Name,
			Path: news.dirs[j].ChildPath(files[i].Name), Kind: store.KindFile, Size: info.Size}
	}
	if err := tx.CreateNodes(ctx, nodes); err != nil {
		return err
	}
	raws := make([]store.FileVersion, len(news.idx))
	var bodies []*blob.Pending
	for j, i := range news.idx {
		raws[j] = newVersion(nodes[j].ID, by, files[i].Name, files[i].pending.Info, store.BodyRaw)
		if d := texts[i]; d != nil {
			bodies = append(bodies, d.body)
			if d.extracted == nil {
				raws[j].Encoding = d.enc
			}
		}
	}
	if err := tx.AddFirstVersions(ctx, raws); err != nil {
		return err
	}
	if err := CommitBlobs(ctx, tx, bodies...); err != nil {
		return err
	}
	var l2s []store.FileVersion
	ids := make([]int64, len(news.idx))
	for j, i := range news.idx {
		if d := texts[i]; d != nil {
			l2s = append(l2s, *d.version(nodes[j], raws[j]))
		}
		ids[j] = nodes[j].ID
		put[i] = nodes[j]
	}
	if err := tx.AddFirstVersions(ctx, l2s); err != nil {
		return err
	}
	_, err := t.MarkForIndex(ctx, tx, ids...)
	return err
}
