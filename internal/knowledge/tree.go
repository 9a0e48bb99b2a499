// Package knowledge is the core of the resource tree: resolving a kb:// URI
// for a caller, listing, mkdir, move, copy, upload, content pages and
// compile layers. Its sub-packages build on its exported seam: tools (the
// four tools and search), trash (trash and versions), share (grants) and
// search (the index writer).
package knowledge

import (
	"context"
	"errors"
	"time"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/extract"
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
	meaning     Meaning
	// extracted, when set, is told after each committed write that
	// documents may wait for extraction (see AutoExtract).
	extracted func()
}

// DefaultTrashTTL is how long deleted nodes stay restorable by default.
const DefaultTrashTTL = 30 * 24 * time.Hour

// Store and Blobs are the stores below the tree, for the sub-packages
// (tools, search) that read them beside it.
func (t *Tree) Store() *store.Store { return t.st }
func (t *Tree) Blobs() *blob.Store  { return t.blobs }

// MaxUpload is the largest file an upload may carry, in bytes.
func (t *Tree) MaxUpload() int64 { return t.maxUpload }

// NewTree builds the service; maxUpload bounds each uploaded file in bytes.
func NewTree(st *store.Store, blobs *blob.Store, maxUpload int64) *Tree {
	return &Tree{st: st, acc: access.New(st), blobs: blobs, maxUpload: maxUpload, trashTTL: DefaultTrashTTL,
		maxIndexed: DefaultMaxIndexedBytes}
}

// TrashTTL is how long deleted nodes stay in the trash.
func (t *Tree) TrashTTL() time.Duration { return t.trashTTL }

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
	// TextProgress is how far a running extraction has come.
	TextProgress *extract.Progress `json:"text_progress,omitempty"`
	// Owner and Role describe an entry of kb://shared/.
	Owner string `json:"owner,omitempty"`
	Role  string `json:"role,omitempty"`
}

func ItemOf(username string, n store.Node) Item {
	return Item{
		URI:       kb.NodeURI(username, n.Path, n.IsDir()),
		Name:      n.Name,
		Kind:      n.Kind,
		Size:      n.Size,
		UpdatedAt: n.UpdatedAt,
		Generated: IsGenerated(n),
	}
}

func NotFound(u string) error {
	return apierr.NotFound(apierr.CodeNotFound, "no such resource: %s", u).WithDetail("uri", u)
}

// Resolve parses raw for the caller and reads the node it names, if the
// authorizer lets the caller read it. A node the caller may not see answers
// exactly like a missing node, so existence never leaks.
func (t *Tree) Resolve(ctx context.Context, c kb.Caller, raw string) (kb.URI, store.Node, error) {
	tg, err := t.Lookup(ctx, c, raw, access.Read)
	return tg.URI, tg.Node, err
}

// ResolveWrite is Resolve for a caller about to change the node: a node
// shared with them read-only answers 403.
func (t *Tree) ResolveWrite(ctx context.Context, c kb.Caller, raw string) (kb.URI, store.Node, error) {
	tg, err := t.Lookup(ctx, c, raw, access.Write)
	return tg.URI, tg.Node, err
}

// WrapStoreErr passes API errors through and maps store sentinels: a race
// with another request answers 404 or 409, never 500; op names the write
// for the log of any other failure.
func WrapStoreErr(op string, err error) error {
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

// Mutate runs fn as one transaction that holds the lock of owner's tree.
func (t *Tree) Mutate(ctx context.Context, owner kb.Caller, fn func(tx *store.Store) error) error {
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
	t.KickIndex()
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

// Fresh re-reads a node resolved before the transaction; a node deleted
// meanwhile is not found.
func Fresh(ctx context.Context, tx *store.Store, owner kb.Caller, u kb.URI, n store.Node) (store.Node, error) {
	got, err := tx.NodeByID(ctx, owner.ID, n.ID)
	if errors.Is(err, store.ErrNotFound) {
		return store.Node{}, NotFound(u.String())
	}
	return got, err
}
