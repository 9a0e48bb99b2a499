// Package knowledge owns the resource tree: kb:// URIs, scope resolution,
// listing, uploads, moves, content pages and the knowledge tools.
package knowledge

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/store"
)

// Listing limits.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// GeneratedRoot is the folder below each user's root that holds compile output.
const GeneratedRoot = "wiki"

// Caller is the authenticated user a request acts for.
type Caller struct {
	ID       int64
	Username string
}

// Tree is the resource tree service shared by the API and the tools.
type Tree struct {
	st        *store.Store
	blobs     *blob.Store
	maxUpload int64
	trashTTL  time.Duration
}

// DefaultTrashTTL is how long deleted nodes stay restorable by default.
const DefaultTrashTTL = 30 * 24 * time.Hour

// NewTree builds the service; maxUpload bounds each uploaded file in bytes.
func NewTree(st *store.Store, blobs *blob.Store, maxUpload int64) *Tree {
	return &Tree{st: st, blobs: blobs, maxUpload: maxUpload, trashTTL: DefaultTrashTTL}
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
}

// IsGenerated tells whether a node is a compile artifact.
func IsGenerated(n store.Node) bool {
	return n.Generated || n.Path == GeneratedRoot || strings.HasPrefix(n.Path, GeneratedRoot+"/")
}

func itemOf(username string, n store.Node) Item {
	return Item{
		URI:       NodeURI(username, n.Path, n.IsDir()),
		Name:      n.Name,
		Kind:      n.Kind,
		Size:      n.Size,
		UpdatedAt: n.UpdatedAt,
		Generated: IsGenerated(n),
	}
}

func notFound(u string) error {
	return apierr.NotFound("not_found", "no such resource: %s", u)
}

// Resolve parses raw for the caller and reads the node it names. Another
// user's tree answers exactly like a missing node, so existence never leaks.
func (t *Tree) Resolve(ctx context.Context, c Caller, raw string) (URI, store.Node, error) {
	u, err := ParseURI(raw, c.Username)
	if err != nil {
		return URI{}, store.Node{}, err
	}
	if u.Username != c.Username {
		return URI{}, store.Node{}, notFound(raw)
	}
	var n store.Node
	if u.Path == "" {
		n, err = t.st.EnsureRoot(ctx, c.ID)
	} else {
		n, err = t.st.NodeByPath(ctx, c.ID, u.Path)
	}
	if errors.Is(err, store.ErrNotFound) {
		return URI{}, store.Node{}, notFound(u.String())
	}
	if err != nil {
		return URI{}, store.Node{}, apierr.Internal(err)
	}
	u.Dir = n.IsDir()
	return u, n, nil
}

// Listing is one page of a folder's children (SPEC §4).
type Listing struct {
	URI        string `json:"uri"`
	Items      []Item `json:"items"`
	NextOffset *int   `json:"next_offset"`
}

// List returns children of the folder raw names, folders first then files,
// each by name; NextOffset is nil on the last page.
func (t *Tree) List(ctx context.Context, c Caller, raw string, offset, limit int) (Listing, error) {
	if offset < 0 {
		return Listing{}, apierr.BadRequest("invalid_offset", "offset must be 0 or more")
	}
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return Listing{}, apierr.BadRequest("invalid_limit", "limit must be between 1 and %d", MaxListLimit)
	}
	u, n, err := t.Resolve(ctx, c, raw)
	if err != nil {
		return Listing{}, err
	}
	if !n.IsDir() {
		return Listing{}, apierr.BadRequest("not_a_folder", "%s is a file, not a folder", u)
	}
	return t.listPage(ctx, c, u, n, offset, limit)
}

// listPage reads one page of a resolved folder with each file's job and
// summary badges; the API and the ls tool share it.
func (t *Tree) listPage(ctx context.Context, c Caller, u URI, n store.Node, offset, limit int) (Listing, error) {
	children, err := t.st.Children(ctx, n.ID, offset, limit+1)
	if err != nil {
		return Listing{}, apierr.Internal(err)
	}
	out := Listing{URI: u.String(), Items: make([]Item, 0, min(len(children), limit))}
	if len(children) > limit {
		children = children[:limit]
		next := offset + limit
		out.NextOffset = &next
	}
	var files []int64
	for _, ch := range children {
		if !ch.IsDir() {
			files = append(files, ch.ID)
		}
	}
	jobs, summaries, err := t.st.Badges(ctx, c.ID, files)
	if err != nil {
		return Listing{}, apierr.Internal(err)
	}
	for _, ch := range children {
		it := itemOf(c.Username, ch)
		if j, ok := jobs[ch.ID]; ok {
			it.Job = &j
		}
		if sb, ok := summaries[ch.ID]; ok {
			it.Summary = sb.State
			it.SummaryURI = NodeURI(c.Username, sb.Path, false)
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}

// Mkdir creates the folder raw names and any missing parents; the folder
// itself must not exist yet.
func (t *Tree) Mkdir(ctx context.Context, c Caller, raw string) (Item, error) {
	u, err := ParseURI(raw, c.Username)
	if err != nil {
		return Item{}, err
	}
	if u.Username != c.Username {
		return Item{}, notFound(raw)
	}
	if u.Path == "" {
		return Item{}, apierr.Conflict("already_exists", "the root folder always exists")
	}
	var created store.Node
	err = t.mutate(ctx, c, func(tx *store.Store) error {
		parent, err := tx.EnsureRoot(ctx, c.ID)
		if err != nil {
			return err
		}
		segs := strings.Split(u.Path, "/")
		for i, name := range segs {
			path := parent.ChildPath(name)
			n, err := tx.NodeByPath(ctx, c.ID, path)
			switch {
			case err == nil && i == len(segs)-1:
				return apierr.Conflict("already_exists", "%s already exists", NodeURI(c.Username, path, n.IsDir()))
			case err == nil && !n.IsDir():
				return apierr.Conflict("not_a_folder", "%s is a file, not a folder", NodeURI(c.Username, path, false))
			case errors.Is(err, store.ErrNotFound):
				n = store.Node{UserID: c.ID, ParentID: &parent.ID, Name: name, Path: path, Kind: store.KindDir}
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
		return Item{}, wrapStoreErr(err)
	}
	return itemOf(c.Username, created), nil
}

// Move renames or moves a node (with its subtree) to newRaw, which must not
// exist and whose parent folder must.
func (t *Tree) Move(ctx context.Context, c Caller, raw, newRaw string) (Item, error) {
	from, n, err := t.Resolve(ctx, c, raw)
	if err != nil {
		return Item{}, err
	}
	if n.Path == "" {
		return Item{}, apierr.BadRequest("invalid_move", "the root folder cannot be moved")
	}
	to, err := ParseURI(newRaw, c.Username)
	if err != nil {
		return Item{}, err
	}
	if to.Username != c.Username {
		return Item{}, notFound(newRaw)
	}
	if to.Path == "" {
		return Item{}, apierr.Conflict("already_exists", "the root folder already exists")
	}
	var moved store.Node
	err = t.mutate(ctx, c, func(tx *store.Store) error {
		// Re-read under the tree lock: another move may have changed the
		// path of n since Resolve, and the subtree follows the fresh one.
		n, err := fresh(ctx, tx, c, from, n)
		if err != nil {
			return err
		}
		if to.Dir && !n.IsDir() {
			return apierr.BadRequest("invalid_move", "new_uri ends with / but %s is a file", from)
		}
		if n.IsDir() && (to.Path == n.Path || strings.HasPrefix(to.Path, n.Path+"/")) {
			return apierr.BadRequest("invalid_move", "a folder cannot be moved into itself")
		}
		parentURI := to.Parent()
		var parent store.Node
		if parentURI.Path == "" {
			parent, err = tx.EnsureRoot(ctx, c.ID)
		} else {
			parent, err = tx.NodeByPath(ctx, c.ID, parentURI.Path)
		}
		if errors.Is(err, store.ErrNotFound) {
			return notFound(parentURI.String())
		}
		if err != nil {
			return err
		}
		if !parent.IsDir() {
			return apierr.BadRequest("not_a_folder", "%s is a file, not a folder", NodeURI(c.Username, parent.Path, false))
		}
		if _, err := tx.NodeByPath(ctx, c.ID, to.Path); err == nil {
			return apierr.Conflict("already_exists", "%s already exists", to)
		}
		moved, err = tx.MoveNode(ctx, n, parent, to.Name())
		return err
	})
	if err != nil {
		return Item{}, wrapStoreErr(err)
	}
	return itemOf(c.Username, moved), nil
}

// wrapStoreErr passes API errors through and maps store sentinels: a race
// with another request answers 404 or 409, never 500.
func wrapStoreErr(err error) error {
	if _, ok := apierr.As(err); ok {
		return err
	}
	switch {
	case errors.Is(err, store.ErrConflict):
		return apierr.Conflict("already_exists", "a resource with that name already exists")
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrGone):
		return apierr.NotFound("not_found", "the resource or its folder was deleted meanwhile").WithCause(err)
	case errors.Is(err, store.ErrBusy):
		return apierr.Conflict("busy", "another change to the same resources is in progress; try again").WithCause(err)
	}
	return apierr.Internal(err)
}

// mutate runs fn as one transaction that holds the caller's tree lock.
func (t *Tree) mutate(ctx context.Context, c Caller, fn func(tx *store.Store) error) error {
	return t.st.InTx(ctx, func(tx *store.Store) error {
		if err := tx.LockTree(ctx, c.ID); err != nil {
			return err
		}
		return fn(tx)
	})
}

// fresh re-reads a node resolved before the transaction; a node deleted
// meanwhile is not found.
func fresh(ctx context.Context, tx *store.Store, c Caller, u URI, n store.Node) (store.Node, error) {
	got, err := tx.NodeByID(ctx, c.ID, n.ID)
	if errors.Is(err, store.ErrNotFound) {
		return store.Node{}, notFound(u.String())
	}
	return got, err
}
