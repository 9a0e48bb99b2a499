package knowledge

import (
	"context"
	"time"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Entry is a node as a file-system client (WebDAV, sync tools) sees it:
// what a stat answers, with the content hash that makes its ETag.
type Entry struct {
	NodeID    int64
	Path      string // in the owner's tree
	Name      string
	Dir       bool
	Size      int64
	ModTime   time.Time
	Created   time.Time
	Hash      string // the latest raw bytes' sha256; "" for a folder
	MediaType string
	Generated bool
	// Writable tells whether the caller may change the node.
	Writable bool
}

// Stat describes the node raw names.
func (t *Tree) Stat(ctx context.Context, c kb.Caller, raw string) (Entry, error) {
	tg, err := t.Lookup(ctx, c, raw, access.Read)
	if err != nil {
		return Entry{}, err
	}
	es, err := t.entries(ctx, tg, []store.Node{tg.Node})
	if err != nil {
		return Entry{}, err
	}
	return es[0], nil
}

// ReadDir describes every child of the folder raw names, folders first,
// each by name; the listing is read in pages but answered whole, as a
// file-system client needs it.
func (t *Tree) ReadDir(ctx context.Context, c kb.Caller, raw string) ([]Entry, error) {
	tg, err := t.Lookup(ctx, c, raw, access.Read)
	if err != nil {
		return nil, err
	}
	if !tg.Node.IsDir() {
		return nil, apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", tg.URI).WithDetail("uri", tg.URI.String())
	}
	var out []Entry
	var after *store.ChildKey
	for {
		page, err := t.st.ChildrenAfter(ctx, tg.Node.ID, after, MaxListLimit)
		if err != nil {
			return nil, apierr.Internal("read dir", err)
		}
		es, err := t.entries(ctx, tg, page)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
		if len(page) < MaxListLimit {
			return out, nil
		}
		k := page[len(page)-1].Key()
		after = &k
	}
}

// entries describes nodes of tg's tree, reading their hashes in one query.
func (t *Tree) entries(ctx context.Context, tg Target, ns []store.Node) ([]Entry, error) {
	var files []int64
	for _, n := range ns {
		if !n.IsDir() {
			files = append(files, n.ID)
		}
	}
	bodies, err := t.st.LatestBodies(ctx, files)
	if err != nil {
		return nil, apierr.Internal("read dir: latest bodies", err)
	}
	out := make([]Entry, len(ns))
	for i, n := range ns {
		e := Entry{NodeID: n.ID, Path: n.Path, Name: n.Name, Dir: n.IsDir(), Size: n.Size,
			ModTime: n.UpdatedAt, Created: n.CreatedAt, Generated: IsGenerated(n), Writable: tg.Dec.CanWrite()}
		if v, ok := bodies[n.ID][store.BodyRaw]; ok {
			e.Hash, e.MediaType, e.Size = v.BlobHash, v.MediaType, v.Size
		}
		out[i] = e
	}
	return out, nil
}

// OpenEntry opens the bytes of a file entry that Stat or ReadDir answered
// for this request (they checked access), without resolving it again; a
// file replaced or deleted since reads as it was when described, or, once
// its bytes are collected, as not found.
func (t *Tree) OpenEntry(e Entry) (RawFile, error) {
	if e.Dir || e.Hash == "" {
		return RawFile{}, apierr.BadRequest(apierr.CodeNotAFile, "%s is a folder", e.Name)
	}
	f, err := t.blobs.Open(e.Hash)
	if err != nil {
		return RawFile{}, apierr.NotFound(apierr.CodeNotFound, "%s was deleted meanwhile", e.Name).WithCause(err)
	}
	return RawFile{File: f, Name: e.Name, MediaType: e.MediaType, Size: e.Size}, nil
}
