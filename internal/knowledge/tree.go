// Package knowledge owns the resource tree: kb:// URIs, scope resolution,
// listing, uploads, moves, content pages and the knowledge tools.
package knowledge

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Listing limits.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// Tree is the resource tree service shared by the API and the tools.
type Tree struct {
	st        *store.Store
	acc       *access.Authorizer
	blobs     *blob.Store
	maxUpload int64
	trashTTL  time.Duration

	indexWriter IndexWriter
	maxIndexed  int64
	// extracted, when set, is told after each committed write that
	// documents may wait for extraction (see AutoExtract).
	extracted func()
}

// DefaultTrashTTL is how long deleted nodes stay restorable by default.
const DefaultTrashTTL = 30 * 24 * time.Hour

// MaxUpload is the largest file an upload may carry, in bytes.
func (t *Tree) MaxUpload() int64 { return t.maxUpload }

// NewTree builds the service; maxUpload bounds each uploaded file in bytes.
func NewTree(st *store.Store, blobs *blob.Store, maxUpload int64) *Tree {
	return &Tree{st: st, acc: access.New(st), blobs: blobs, maxUpload: maxUpload, trashTTL: DefaultTrashTTL,
		maxIndexed: DefaultMaxIndexedBytes}
}

// SetTrashTTL sets how long deleted nodes stay in the trash.
func (t *Tree) SetTrashTTL(d time.Duration) { t.trashTTL = d }

// Item is the JSON shape of a node (SPEC §4).
type Item struct {
	URI       string    `json:"uri"`
	Name      string    `json:"name"`
	Kind      string    `json:"kind"`
	Size      int64     `json:"size"`
	UpdatedAt time.Time `json:"updated_at"`
	Generated bool      `json:"generated"`
	// Job is the file's latest compile job; Summary says whether its
	// summary is "fresh" or "stale" and SummaryURI where it is. All are
	// absent when there is none.
	Job        *store.JobBadge `json:"job,omitempty"`
	Summary    string          `json:"summary,omitempty"`
	SummaryURI string          `json:"summary_uri,omitempty"`
	// Stale is set with SummaryURI: whether the file changed since.
	Stale *bool `json:"stale,omitempty"`
	// Abstract (at most MaxAbstractChars) and OverviewURI are a compiled
	// folder's L0 and where its L1 is, from the caller's compile.
	Abstract    string `json:"abstract,omitempty"`
	OverviewURI string `json:"overview_uri,omitempty"`
	// Shared marks the caller's own nodes that carry a share.
	Shared bool `json:"shared,omitempty"`
	// AutoCompile marks a folder kept compiled (PUT /resources/auto-compile).
	AutoCompile bool `json:"auto_compile,omitempty"`
	// OCR marks a file whose current text body was recognized by OCR.
	OCR bool `json:"ocr,omitempty"`
	// TextState is text_pending while a document's text is being
	// extracted after its upload, text_failed when it could not be.
	TextState string `json:"text_state,omitempty"`
	// Owner and Role describe an entry of kb://shared/.
	Owner string `json:"owner,omitempty"`
	Role  string `json:"role,omitempty"`
}

func itemOf(username string, n store.Node) Item {
	return Item{
		URI:       kb.NodeURI(username, n.Path, n.IsDir()),
		Name:      n.Name,
		Kind:      n.Kind,
		Size:      n.Size,
		UpdatedAt: n.UpdatedAt,
		Generated: IsGenerated(n),
	}
}

func notFound(u string) error {
	return apierr.NotFound(apierr.CodeNotFound, "no such resource: %s", u)
}

// Resolve parses raw for the caller and reads the node it names, if the
// authorizer lets the caller read it. A node the caller may not see answers
// exactly like a missing node, so existence never leaks.
func (t *Tree) Resolve(ctx context.Context, c kb.Caller, raw string) (kb.URI, store.Node, error) {
	tg, err := t.resolve(ctx, c, raw, access.Read)
	return tg.uri, tg.node, err
}

// ResolveWrite is Resolve for a caller about to change the node: a node
// shared with them read-only answers 403.
func (t *Tree) ResolveWrite(ctx context.Context, c kb.Caller, raw string) (kb.URI, store.Node, error) {
	tg, err := t.resolve(ctx, c, raw, access.Write)
	return tg.uri, tg.node, err
}

// Listing is one page of a folder's children (SPEC §4). Access says what
// the caller may do in the folder: owner, write or read. NextCursor starts
// the next page after this one's last row; NextOffset is given to offset
// pages only (a cursor page does not know its position). Both are nil on
// the last page.
type Listing struct {
	URI        string  `json:"uri"`
	Access     string  `json:"access,omitempty"`
	Items      []Item  `json:"items"`
	NextOffset *int    `json:"next_offset"`
	NextCursor *string `json:"next_cursor"`
}

// PageRequest picks a page of a listing: after Cursor (a previous page's
// next_cursor) or, for existing scripts, after skipping Offset children.
// Limit 0 means the default.
type PageRequest struct {
	Cursor string
	Offset int
	Limit  int
}

// List returns children of the folder raw names, folders first then files,
// each by name; NextOffset is nil on the last page.
func (t *Tree) List(ctx context.Context, c kb.Caller, raw string, offset, limit int) (Listing, error) {
	return t.ListPage(ctx, c, raw, PageRequest{Offset: offset, Limit: limit})
}

// ListPage is List by cursor or offset.
func (t *Tree) ListPage(ctx context.Context, c kb.Caller, raw string, pr PageRequest) (Listing, error) {
	if pr.Offset < 0 {
		return Listing{}, apierr.BadRequest(apierr.CodeInvalidOffset, "offset must be 0 or more")
	}
	if pr.Limit == 0 {
		pr.Limit = DefaultListLimit
	}
	if pr.Limit < 1 || pr.Limit > MaxListLimit {
		return Listing{}, apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d", MaxListLimit)
	}
	if pr.Cursor != "" && pr.Offset != 0 {
		return Listing{}, invalidCursor("and offset cannot be used together")
	}
	if kb.IsSharedURI(raw) && c.Scoped() {
		return Listing{}, notFound(kb.SharedURI)
	}
	if kb.IsSharedURI(raw) {
		return t.listShared(ctx, c, pr)
	}
	tg, err := t.resolve(ctx, c, raw, access.Read)
	if err != nil {
		return Listing{}, err
	}
	if !tg.node.IsDir() {
		return Listing{}, apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", tg.uri)
	}
	if c.Scoped() && tg.node.Path == "" {
		return t.listScopedRoot(ctx, c, tg)
	}
	return t.listPage(ctx, c, tg, pr)
}

// listScopedRoot answers a scoped caller's root as if the scope folder were
// its only child, however deep the folder really is.
func (t *Tree) listScopedRoot(ctx context.Context, c kb.Caller, root target) (Listing, error) {
	n, err := t.st.NodeByID(ctx, c.ID, c.ScopeID)
	if errors.Is(err, store.ErrNotFound) {
		return Listing{}, ErrScopeDeleted
	}
	if err != nil {
		return Listing{}, apierr.Internal("list scope root", err)
	}
	return Listing{URI: root.uri.String(), Access: access.Read.String(), Items: []Item{itemOf(c.Username, n)}}, nil
}

// ErrScopeDeleted refuses a scoped token whose folder no longer exists.
var ErrScopeDeleted = apierr.Unauthorized(apierr.CodeTokenScopeDeleted, "the folder this API token was scoped to has been deleted; the token no longer works, create a new one")

// children reads one page of folder's rows plus one to tell whether more
// follow: by keyset after the cursor, or by offset.
func (t *Tree) children(ctx context.Context, folder int64, pr PageRequest) ([]store.Node, error) {
	if pr.Cursor == "" {
		return t.st.Children(ctx, folder, pr.Offset, pr.Limit+1)
	}
	cur, err := decodeListCursor(pr.Cursor, folder)
	if err != nil {
		return nil, err
	}
	return t.st.ChildrenAfter(ctx, folder, cur.key(), pr.Limit+1)
}

// listPage reads one page of a resolved folder with each file's job and
// summary badges; the API and the ls tool share it.
func (t *Tree) listPage(ctx context.Context, c kb.Caller, tg target, pr PageRequest) (Listing, error) {
	children, err := t.children(ctx, tg.node.ID, pr)
	if _, ok := apierr.As(err); ok {
		return Listing{}, err
	}
	if err != nil {
		return Listing{}, apierr.Internal("list folder", err)
	}
	limit := pr.Limit
	out := Listing{URI: tg.uri.String(), Access: tg.dec.Role.String(), Items: make([]Item, 0, min(len(children), limit))}
	if len(children) > limit {
		children = children[:limit]
		out.NextCursor = cursorAfter(tg.node.ID, children[limit-1])
		if pr.Cursor == "" {
			next := pr.Offset + limit
			out.NextOffset = &next
		}
	}
	var files, all, dirIDs []int64
	var dirs []layerDir
	for _, ch := range children {
		all = append(all, ch.ID)
		if ch.IsDir() {
			dirIDs = append(dirIDs, ch.ID)
			dirs = append(dirs, layerDir{owner: tg.owner, path: ch.Path})
		} else {
			files = append(files, ch.ID)
		}
	}
	// Badges are the caller's: their jobs and summaries of these files,
	// which for a shared folder live in the caller's own tree.
	jobs, summaries, err := t.st.Badges(ctx, c.ID, files)
	if err != nil {
		return Listing{}, apierr.Internal("list folder: badges", err)
	}
	layers, err := t.folderLayers(ctx, c, dirs)
	if err != nil {
		return Listing{}, apierr.Internal("list folder: folder layers", err)
	}
	watched := map[int64]bool{}
	if len(dirIDs) > 0 {
		if watched, err = t.st.AutoCompiled(ctx, dirIDs); err != nil {
			return Listing{}, apierr.Internal("list folder: auto-compiled folders", err)
		}
	}
	ocr, err := t.ocrBodies(ctx, children)
	if err != nil {
		return Listing{}, apierr.Internal("list folder: OCR bodies", err)
	}
	texts, err := t.textStates(ctx, children)
	if err != nil {
		return Listing{}, apierr.Internal("list folder: text states", err)
	}
	shared := map[int64]bool{}
	if tg.owner.ID == c.ID {
		if shared, err = t.st.SharedNodes(ctx, all); err != nil {
			return Listing{}, apierr.Internal("list folder: shared nodes", err)
		}
	}
	d := 0 // index of the next folder in dirs
	for _, ch := range children {
		it := itemOf(tg.owner.Username, ch)
		it.Shared = shared[ch.ID]
		it.AutoCompile = watched[ch.ID]
		it.OCR = ocr[ch.ID]
		it.TextState = texts[ch.ID]
		if j, ok := jobs[ch.ID]; ok {
			it.Job = &j
		}
		if sb, ok := summaries[ch.ID]; ok {
			it.Summary = sb.State
			it.SummaryURI = kb.NodeURI(c.Username, sb.Path, false)
			stale := sb.State == store.SummaryStale
			it.Stale = &stale
		}
		if ch.IsDir() {
			l := layers[d]
			it.Abstract, it.OverviewURI = l.abstract, l.overviewURI
			d++
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}

// Mkdir creates the folder raw names and any missing parents; the folder
// itself must not exist yet.
func (t *Tree) Mkdir(ctx context.Context, c kb.Caller, raw string) (Item, error) {
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return Item{}, err
	}
	own, _, err := t.decideWrite(ctx, c, u)
	if err != nil {
		return Item{}, err
	}
	if u.Path == "" {
		return Item{}, apierr.Conflict(apierr.CodeAlreadyExists, "the root folder always exists")
	}
	var created store.Node
	err = t.mutate(ctx, own, func(tx *store.Store) error {
		parent, err := tx.EnsureRoot(ctx, own.ID)
		if err != nil {
			return err
		}
		segs := strings.Split(u.Path, "/")
		for i, name := range segs {
			path := parent.ChildPath(name)
			n, err := tx.NodeByPath(ctx, own.ID, path)
			switch {
			case err == nil && i == len(segs)-1:
				return apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists", kb.NodeURI(own.Username, path, n.IsDir()))
			case err == nil && !n.IsDir():
				return apierr.Conflict(apierr.CodeNotAFolder, "%s is a file, not a folder", kb.NodeURI(own.Username, path, false))
			case errors.Is(err, store.ErrNotFound):
				n = store.Node{UserID: own.ID, ParentID: &parent.ID, Name: name, Path: path, Kind: store.KindDir}
				if err := tx.CreateNode(ctx, &n); err != nil {
					return err
				}
			case err != nil:
				return err
			}
			parent = n
		}
		created = parent
		return nil
	})
	if err != nil {
		return Item{}, wrapStoreErr("make folder", err)
	}
	return itemOf(own.Username, created), nil
}

// Move renames or moves a node (with its subtree) to newRaw, which must not
// exist and whose parent folder must.
func (t *Tree) Move(ctx context.Context, c kb.Caller, raw, newRaw string) (Item, error) {
	it, _, err := t.move(ctx, c, raw, newRaw, false)
	return it, err
}

// MoveReplacing is Move onto a node that may exist: that node goes to the
// trash in the same transaction as the move (WebDAV's Overwrite: T), and
// replaced tells whether there was one.
func (t *Tree) MoveReplacing(ctx context.Context, c kb.Caller, raw, newRaw string) (it Item, replaced bool, err error) {
	return t.move(ctx, c, raw, newRaw, true)
}

func (t *Tree) move(ctx context.Context, c kb.Caller, raw, newRaw string, replace bool) (Item, bool, error) {
	src, err := t.resolve(ctx, c, raw, access.Write)
	if err != nil {
		return Item{}, false, err
	}
	from, n, own := src.uri, src.node, src.owner
	if n.Path == "" {
		return Item{}, false, apierr.BadRequest(apierr.CodeInvalidMove, "the root folder cannot be moved")
	}
	if err := guardShareRoot(src, "move or rename"); err != nil {
		return Item{}, false, err
	}
	to, err := kb.ParseURI(newRaw, c.Username)
	if err != nil {
		return Item{}, false, err
	}
	if to.Username != own.Username {
		// A tree the caller cannot see answers as missing, as everywhere.
		if _, _, err := t.decide(ctx, c, to); err != nil {
			return Item{}, false, err
		}
		return Item{}, false, outsideTree(src, to)
	}
	if !access.Within(to.Path, src.dec.WriteRoot) {
		return Item{}, false, outsideTree(src, to)
	}
	if to.Path == "" {
		return Item{}, false, apierr.Conflict(apierr.CodeAlreadyExists, "the root folder already exists")
	}
	var moved store.Node
	var replaced bool
	err = t.mutate(ctx, own, func(tx *store.Store) error {
		// Re-read under the tree lock: another move may have changed the
		// path of n since Resolve, and the subtree follows the fresh one.
		n, err := fresh(ctx, tx, own, from, n)
		if err != nil {
			return err
		}
		if err := guardGenerated(own, n); err != nil {
			return err
		}
		if to.Dir && !n.IsDir() {
			return apierr.BadRequest(apierr.CodeInvalidMove, "new_uri ends with / but %s is a file", from)
		}
		if n.IsDir() && (to.Path == n.Path || strings.HasPrefix(to.Path, n.Path+"/")) {
			return apierr.BadRequest(apierr.CodeInvalidMove, "a folder cannot be moved into itself")
		}
		parentURI := to.Parent()
		var parent store.Node
		if parentURI.Path == "" {
			parent, err = tx.EnsureRoot(ctx, own.ID)
		} else {
			parent, err = tx.NodeByPath(ctx, own.ID, parentURI.Path)
		}
		if errors.Is(err, store.ErrNotFound) {
			return notFound(parentURI.String())
		}
		if err != nil {
			return err
		}
		if !parent.IsDir() {
			return apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", kb.NodeURI(own.Username, parent.Path, false))
		}
		replaced = false
		if old, err := tx.NodeByPath(ctx, own.ID, to.Path); err == nil {
			if !replace {
				return apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists", to)
			}
			if err := t.replaceable(src, old, n); err != nil {
				return err
			}
			if err := trashNode(ctx, tx, c, own, old); err != nil {
				return err
			}
			replaced = true
		}
		if moved, err = tx.MoveNode(ctx, n, parent, to.Name()); err != nil {
			return err
		}
		// Both folders changed: one lost the node, the other gained it.
		return markChanged(ctx, tx, own, n, moved)
	})
	if err != nil {
		return Item{}, false, wrapStoreErr("move", err)
	}
	return itemOf(own.Username, moved), replaced, nil
}

// outsideTree refuses a move that would leave the tree it is in, or for a
// grantee the folder shared with them: a node never changes owner by a
// rename, and a grantee cannot carry the owner's files away.
func outsideTree(src target, to kb.URI) error {
	if src.dec.Role == access.Owner {
		return apierr.BadRequest(apierr.CodeInvalidMove, "%s is in %s's tree; a move stays within one tree (upload a copy instead)", src.uri, src.owner.Username)
	}
	shared := kb.URI{Username: src.owner.Username, Path: src.dec.WriteRoot, Dir: true}
	return apierr.Forbidden(apierr.CodeOutsideShare, "%s may only move within %s, the folder shared with you; %s is outside it", src.uri, shared, to)
}

// wrapStoreErr passes API errors through and maps store sentinels: a race
// with another request answers 404 or 409, never 500; op names the write
// for the log of any other failure.
func wrapStoreErr(op string, err error) error {
	if _, ok := apierr.As(err); ok {
		return err
	}
	switch {
	case errors.Is(err, store.ErrConflict):
		return apierr.Conflict(apierr.CodeAlreadyExists, "a resource with that name already exists")
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrGone):
		return apierr.NotFound(apierr.CodeNotFound, "the resource or its folder was deleted meanwhile").WithCause(err)
	case errors.Is(err, store.ErrBusy):
		return apierr.Conflict(apierr.CodeBusy, "another change to the same resources is in progress; try again").WithCause(err)
	}
	return apierr.Internal(op, err)
}

// mutate runs fn as one transaction that holds the lock of owner's tree.
func (t *Tree) mutate(ctx context.Context, owner kb.Caller, fn func(tx *store.Store) error) error {
	return t.inTx(ctx, func(tx *store.Store) error {
		if err := tx.LockTree(ctx, owner.ID); err != nil {
			return err
		}
		return fn(tx)
	})
}

// inTx runs fn as one transaction and, once it committed, has the index
// writer take what it marked pending.
func (t *Tree) inTx(ctx context.Context, fn func(tx *store.Store) error) error {
	if err := t.st.InTx(ctx, fn); err != nil {
		return err
	}
	if t.indexWriter != nil {
		t.indexWriter.Kick()
	}
	if t.extracted != nil {
		t.extracted()
	}
	return nil
}

// AutoExtract has every write mark the documents it leaves without text
// parsed from their current upload (see markExtractions), and call notify,
// which must not block, once it committed. Set before serving; without it
// a document's text comes from compile alone.
func (t *Tree) AutoExtract(notify func()) { t.extracted = notify }

// fresh re-reads a node resolved before the transaction; a node deleted
// meanwhile is not found.
func fresh(ctx context.Context, tx *store.Store, owner kb.Caller, u kb.URI, n store.Node) (store.Node, error) {
	got, err := tx.NodeByID(ctx, owner.ID, n.ID)
	if errors.Is(err, store.ErrNotFound) {
		return store.Node{}, notFound(u.String())
	}
	return got, err
}
