package knowledge

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// Search limits (SPEC §6): a page visits at most SearchFilesPerPage files
// and reads at most MaxSearchPageBytes of their bodies.
const (
	SearchFilesPerPage    = 40
	MaxSearchPageBytes    = 64 << 20
	MaxSearchQueryChars   = 200
	MaxSearchHitsPerPage  = 40
	MaxSearchHitsPerFile  = 5
	searchSnippetRadius   = 40
	searchChunkBytes      = 256 << 10
	searchHitsBudgetBytes = 20 << 10 // hits' share of MaxToolResultBytes
	cursorPrefix          = "s1."
)

// SearchHit is one match: the file, the code point offset of the match in
// the file's text body (a read offset) and a snippet with the match
// between « and ».
type SearchHit struct {
	URI     string `json:"uri"`
	Offset  int64  `json:"offset"`
	Snippet string `json:"snippet"`
}

// SearchPartial names a file whose text this page searched only up to
// Offset; next_offset continues inside it.
type SearchPartial struct {
	URI    string `json:"uri"`
	Offset int64  `json:"offset"`
}

// SearchResult is one page of a search (SPEC §6). next_offset is an opaque
// string cursor (not a number, unlike ls and read): pass it back as offset
// to continue; it is null, and complete true, only when every file under
// uri has been visited by this and the earlier pages.
type SearchResult struct {
	URI           string         `json:"uri"`
	Query         string         `json:"query"`
	Hits          []SearchHit    `json:"hits"`
	Scanned       int            `json:"scanned"`       // files whose text this page searched
	MatchedFiles  int            `json:"matched_files"` // of those, files with a match
	NextOffset    *string        `json:"next_offset"`
	Complete      bool           `json:"complete"`
	MoreHitsIn    []string       `json:"more_hits_in,omitempty"` // files with more matches than the hits show
	SkippedNoText int            `json:"skipped_no_text"`        // files visited that have no text body
	BytesRead     int64          `json:"bytes_read"`
	Partial       *SearchPartial `json:"partial_file,omitempty"`
	Note          string         `json:"note,omitempty"`
}

var searchTool = toolDef{
	name: "search",
	description: fmt.Sprintf("Search the text of the files under a folder (or one file) for a phrase, ignoring case. "+
		"One call searches at most %d files in path order and says how many it scanned; complete is false whenever files remain, "+
		"then call again with offset set to next_offset (an opaque string). Hits give uri, offset (a read offset, in characters) and a snippet with the match in «». "+
		"Files without a text body are counted in skipped_no_text, not searched.", SearchFilesPerPage),
	tooBig: "use a longer, more specific query or search a narrower folder",
	args: []argSpec{
		uriArg("The folder (searched with everything below it) or the file to search."),
		{Name: "query", Kind: argString, Required: true, MinChars: 1, MaxChars: MaxSearchQueryChars, Description: "The text to find: a literal phrase, matched ignoring case (not a regular expression)."},
		{Name: "offset", Kind: argString, MaxChars: 4 * MaxURIBytes, Description: "Cursor to continue a search: the next_offset string of the previous page. Omit it for the first page."},
	},
	run: (*Tree).runSearch,
}

// searchCursor is where the next page starts: after the file at Path, or
// inside it (Mid) at a position valid for the blob whose hash starts with Hash.
type searchCursor struct {
	// Owner is, in a walk of kb://shared/, the id of the user whose tree
	// Path is in.
	Owner  int64  `json:"u,omitempty"`
	Path   string `json:"p"`
	Mid    bool   `json:"m,omitempty"`
	Hash   string `json:"h,omitempty"`
	Byte   int64  `json:"b,omitempty"`
	Char   int64  `json:"c,omitempty"`
	Accept int64  `json:"a,omitempty"`
}

func (c searchCursor) encode() *string {
	b, _ := json.Marshal(c)
	s := cursorPrefix + base64.RawURLEncoding.EncodeToString(b)
	return &s
}

func badCursor() error {
	return invalidArgs("search: offset is not a cursor from a previous search page; pass next_offset unchanged, or omit offset to start again")
}

// decodeCursor checks a cursor and that it belongs to a walk of the call's
// target: inside its node, or for kb://shared/ inside a root shared now.
func decodeCursor(s string, call toolCall) (searchCursor, error) {
	target := call.node
	raw, ok := strings.CutPrefix(s, cursorPrefix)
	if !ok {
		return searchCursor{}, badCursor()
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return searchCursor{}, badCursor()
	}
	var c searchCursor
	if err := json.Unmarshal(b, &c); err != nil || c.Path == "" || c.Byte < 0 || c.Char < 0 || c.Accept < c.Char {
		return searchCursor{}, badCursor()
	}
	inside := c.Owner == 0 && (c.Path == target.Path ||
		(target.IsDir() && (target.Path == "" || strings.HasPrefix(c.Path, target.Path+"/"))))
	if call.shared {
		inside = slices.ContainsFunc(call.roots, func(r store.SharedRoot) bool {
			return r.UserID == c.Owner && access.Within(c.Path, r.Path)
		})
	}
	if !inside {
		return searchCursor{}, invalidArgs("search: this offset continues a search of another uri; pass the uri of that search, or omit offset to start again")
	}
	return c, nil
}

func hashPrefix(h string) string { return h[:min(len(h), 16)] }

func (t *Tree) runSearch(ctx context.Context, call toolCall) (any, string, error) {
	query := call.args.str("query")
	if strings.TrimSpace(query) == "" {
		return nil, "", invalidArgs("search: \"query\" must contain more than spaces")
	}
	var cur searchCursor
	if off := call.args.str("offset"); off != "" {
		var err error
		if cur, err = decodeCursor(off, call); err != nil {
			return nil, "", err
		}
	}
	files, more, err := t.searchFiles(ctx, call, cur)
	if err != nil {
		return nil, "", apierr.Internal(err)
	}
	ids := make([]int64, len(files))
	for i, f := range files {
		ids[i] = f.ID
	}
	bodies, err := t.st.LatestBodies(ctx, ids)
	if err != nil {
		return nil, "", apierr.Internal(err)
	}
	out := &SearchResult{URI: call.scopeURI(), Query: query, Hits: []SearchHit{}}
	sc, err := newFileScanner(query, scanOpts{}, searchSnippetRadius, searchChunkBytes)
	if err != nil {
		return nil, "", err
	}
	var (
		budget    = int64(MaxSearchPageBytes)
		hitBytes  = 0
		hitsFull  = false
		next      *searchCursor
		notes     []string
		remaining = more
	)
	for _, f := range files {
		v, ok := pickBody(bodies[f.ID])
		if !ok {
			out.SkippedNoText++
			next = call.cursorAt(f)
			continue
		}
		start := scanPos{}
		if cur.Mid && f.Path == cur.Path {
			if hashPrefix(v.BlobHash) == cur.Hash && cur.Byte <= v.Size && cur.Char <= v.CharCount {
				start = scanPos{Byte: cur.Byte, Char: cur.Char, Accept: cur.Accept}
			} else {
				notes = append(notes, fmt.Sprintf("%s changed since the previous page and was searched again from its start", call.fileURI(f)))
			}
		}
		if out.Scanned > 0 && v.Size-start.Byte > budget {
			remaining = true // this page's byte budget is spent; the file starts the next page
			break
		}
		maxHits := MaxSearchHitsPerFile
		if hitsFull {
			maxHits = 0
		}
		maxHits = min(maxHits, MaxSearchHitsPerPage-len(out.Hits))
		res, err := t.scanBlob(ctx, sc, v, start, maxHits, budget)
		if err != nil {
			return nil, "", err
		}
		budget -= res.read
		out.BytesRead += res.read
		out.Scanned++
		uri := call.fileURI(f)
		shownAll := true
		for _, h := range res.hits {
			size := len(uri) + len(h.Snippet) + 48
			if hitsFull || hitBytes+size > searchHitsBudgetBytes {
				hitsFull, shownAll = true, false
				continue
			}
			hitBytes += size
			out.Hits = append(out.Hits, SearchHit{URI: uri, Offset: h.Offset, Snippet: h.Snippet})
		}
		if len(out.Hits) >= MaxSearchHitsPerPage {
			hitsFull = true
		}
		if len(res.hits) > 0 || res.more {
			out.MatchedFiles++
		}
		if res.more || !shownAll {
			out.MoreHitsIn = append(out.MoreHitsIn, uri)
		}
		next = call.cursorAt(f)
		if res.resume != nil {
			next.Mid, next.Hash = true, hashPrefix(v.BlobHash)
			next.Byte, next.Char, next.Accept = res.resume.Byte, res.resume.Char, res.resume.Accept
			out.Partial = &SearchPartial{URI: uri, Offset: res.resume.Char}
			notes = append(notes, fmt.Sprintf("%s was searched up to character %d (the page's %d-byte read limit); the next page continues there",
				uri, res.resume.Char, MaxSearchPageBytes))
			remaining = true
			break
		}
	}
	if remaining && next != nil {
		out.NextOffset = next.encode()
	}
	out.Complete = out.NextOffset == nil
	if len(out.MoreHitsIn) > 0 {
		notes = append(notes, "files in more_hits_in have more matches than shown; search them one at a time or read around the offsets")
	}
	if out.SkippedNoText > 0 {
		notes = append(notes, fmt.Sprintf("%d file(s) have no text body yet (binary or not parsed) and were not searched", out.SkippedNoText))
	}
	if !out.Complete {
		notes = append(notes, "not every file was searched yet: call search again with offset = next_offset")
	}
	out.Note = strings.Join(notes, "; ")
	summary := fmt.Sprintf("%d hits in %d of %d files scanned", len(out.Hits), out.MatchedFiles, out.Scanned)
	if !out.Complete {
		summary += " (partial: more files remain)"
	}
	return out, summary, nil
}

// searchFiles lists the files this page visits: the target itself when it
// is a file, else the next files below it in path order; more tells
// whether files remain after them.
func (t *Tree) searchFiles(ctx context.Context, call toolCall, cur searchCursor) ([]store.Node, bool, error) {
	if call.shared {
		return t.searchSharedFiles(ctx, call, cur)
	}
	if !call.node.IsDir() {
		if cur.Path != "" && !cur.Mid {
			return nil, false, nil
		}
		return []store.Node{call.node}, false, nil
	}
	files, err := t.st.WalkFiles(ctx, call.node.UserID, call.node.Path, cur.Path, cur.Mid, SearchFilesPerPage+1)
	if err != nil {
		return nil, false, err
	}
	if len(files) > SearchFilesPerPage {
		return files[:SearchFilesPerPage], true, nil
	}
	return files, false, nil
}

// searchSharedFiles walks the roots shared with the caller now, in their
// order (owner, then path), each in path order, from the cursor's root on.
func (t *Tree) searchSharedFiles(ctx context.Context, call toolCall, cur searchCursor) ([]store.Node, bool, error) {
	need := SearchFilesPerPage + 1
	var out []store.Node
	started := cur.Path == ""
	for _, r := range call.roots {
		after, inclusive := "", false
		if !started {
			if r.UserID != cur.Owner || !access.Within(cur.Path, r.Path) {
				continue
			}
			started, after, inclusive = true, cur.Path, cur.Mid
		}
		if !r.IsDir() {
			if after == "" || inclusive {
				out = append(out, r.Node)
			}
		} else {
			files, err := t.st.WalkFiles(ctx, r.UserID, r.Path, after, inclusive, need-len(out))
			if err != nil {
				return nil, false, err
			}
			out = append(out, files...)
		}
		if len(out) >= need {
			break
		}
	}
	if len(out) > SearchFilesPerPage {
		return out[:SearchFilesPerPage], true, nil
	}
	return out, false, nil
}

func (t *Tree) scanBlob(ctx context.Context, sc *fileScanner, v store.FileVersion, start scanPos, maxHits int, budget int64) (scanOut, error) {
	f, err := t.blobs.Open(v.BlobHash)
	if err != nil && t.gone(ctx, v.NodeID) {
		return scanOut{}, nil // deleted while the search walked: nothing to find
	}
	if err != nil {
		return scanOut{}, apierr.Internal(fmt.Errorf("open blob %s: %w", v.BlobHash, err))
	}
	defer f.Close()
	res, err := sc.scan(ctx, f, v.Size, start, maxHits, maxHits, budget)
	if err != nil {
		if ctx.Err() != nil {
			return scanOut{}, ctx.Err()
		}
		return scanOut{}, apierr.Internal(err)
	}
	return res, nil
}
