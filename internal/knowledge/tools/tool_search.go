package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/kb"
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
	Line    int64  `json:"line"` // 1-based
	Offset  int64  `json:"offset"`
	Snippet string `json:"snippet"`
	// Generated marks a file compile made from others (a summary or an
	// overview): its words are a retelling, so an answer cites the
	// original where both are found.
	Generated bool `json:"generated,omitempty"`
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
	URI           string      `json:"uri"`
	Query         string      `json:"query"`
	Hits          []SearchHit `json:"hits"`
	Scanned       int         `json:"scanned"`       // files whose text this page searched
	MatchedFiles  int         `json:"matched_files"` // of those, files with a match
	NextOffset    *string     `json:"next_offset"`
	Complete      bool        `json:"complete"`
	MoreHitsIn    []string    `json:"more_hits_in,omitempty"` // files with more matches than the hits show
	SkippedNoText int         `json:"skipped_no_text"`        // files visited that have no text body
	// PendingFiles are the documents in scope whose text is still being
	// extracted after their upload: not searched yet, so complete is false.
	PendingFiles int `json:"pending_files,omitempty"`
	// UnrankedFiles are files in scope, on a ranked search's first page,
	// whose text the word index does not hold as it is now (being
	// indexed, or too large): not ranked, so complete is false.
	UnrankedFiles int `json:"unranked_files,omitempty"`
	// UnembeddedFiles are files in scope, on a meaning or hybrid search's
	// first page, whose vectors are still being computed: not searched by
	// meaning, so complete is false.
	UnembeddedFiles int            `json:"unembedded_files,omitempty"`
	BytesRead       int64          `json:"bytes_read"`
	Partial         *SearchPartial `json:"partial_file,omitempty"`
	Note            string         `json:"note,omitempty"`
	// Mode says which path answered: for a literal search "index"
	// (candidates from the content index, each confirmed by the exact
	// matcher) or "scan" (every file read, a page at a time); "ranked" for
	// ranked retrieval (files scored by the word index, best first, with
	// their best passages), "meaning" (scored by their chunks' nearness to
	// the query's vector) or "hybrid" (both fused).
	Mode string `json:"mode"`
	// Ranked: the index's candidates were all read and the hits come best
	// first across the pages; scanned and matched_files then count the
	// whole scope on every page.
	Ranked bool `json:"ranked,omitempty"`
}

var searchTool = toolDef{
	name: "search",
	description: fmt.Sprintf("Search the text of the files under a folder (or one file). Modes: "+
		"\"ranked\" matches the words of a question (stemmed, any order, Chinese and Japanese by character pairs) and returns the best files first, each with its best passages; "+
		"\"hybrid\" fuses ranked with a search by meaning (the server's embedding model), finding passages phrased in other words; \"meaning\" is the meaning half alone; both need an embedding model on the server; "+
		"\"literal\" finds an exact string (ignoring case unless case_sensitive, or an RE2 regex). "+
		"Without mode: hybrid (or ranked, without an embedding model) for a query of several words, literal for one word or a \"quoted phrase\". "+
		"Literal with 3 or more characters asks the content index and answers the whole folder in one call (result mode \"index\"); a shorter query or a regex without 3 literal characters in a row reads at most %d files per call in path order (mode \"scan\"). "+
		"complete is false whenever more remains: call again with offset set to next_offset (an opaque string); "+
		"complete false without next_offset means pending_files documents are still having their text extracted after upload (or unranked_files are still being indexed, or unembedded_files embedded) and were not searched: say so in your answer, and search again shortly. "+
		"Hits give uri, line, offset (a read offset, in characters) and a snippet with the matches in «»; generated: true marks a summary compile made from other files (originals rank first: cite the original when both are found); a literal folder search shows at most %d hits per file and lists files with more in more_hits_in (search that file alone to page through them). "+
		"Files without a text body are counted in skipped_no_text, not searched.", SearchFilesPerPage, MaxSearchHitsPerFile),
	tooBig: "use a longer, more specific query or search a narrower folder",
	args: []argSpec{
		uriArg("The folder (searched with everything below it) or the file to search."),
		{Name: "query", Kind: argString, Required: true, MinChars: 1, MaxChars: MaxSearchQueryChars, Description: "What to find: for ranked, a question or keywords; for literal, an exact phrase (or an RE2 regular expression when regex is true), matched ignoring case unless case_sensitive is true."},
		{Name: "mode", Kind: argString, Enum: searchModes, Description: "hybrid: words and meaning fused, best files first (use for questions and topics when the server has an embedding model); ranked: words of a question, best files first; literal: an exact string (use for names, identifiers, quotes); meaning: by meaning alone. Default: hybrid (ranked without an embedding model) for several words, literal for one word or a quoted phrase."},
		{Name: "offset", Kind: argString, MaxChars: 4 * kb.MaxURIBytes, Description: "Cursor to continue a search: the next_offset string of the previous page. Omit it for the first page."},
		{Name: "case_sensitive", Kind: argBoolean, Description: "Match letter case exactly (default false: ignoring case)."},
		{Name: "regex", Kind: argBoolean, Description: "Treat query as an RE2 regular expression, matched within one line (default false: a literal phrase)."},
		{Name: "path", Kind: argString, MaxChars: 200, Description: "Only files whose path matches this glob: without a slash it matches the file name (\"*.md\"), with one the path below uri (\"notes/**/*.md\", ** crossing folders)."},
	},
	run:    (*Service).runSearch,
	result: reflect.TypeFor[*SearchResult](),
}

// searchCursor is where the next page starts: after the file at Path, or
// inside it (Mid) at a position valid for the blob whose hash starts with Hash.
type searchCursor struct {
	// Owner is, in a walk of kb://shared/, the id of the user whose tree
	// Path is in.
	Owner int64  `json:"u,omitempty"`
	Path  string `json:"p"`
	// Index marks a walk of the index's candidates rather than of every
	// file; Rank, in a ranked answer, is the rank of the next file to show.
	Index bool     `json:"i,omitempty"`
	Rank  *rankKey `json:"r,omitempty"`
	// Skip, in a ranked-mode walk, is how many of the best files earlier
	// pages showed.
	Skip int `json:"k,omitempty"`
	// Dense: in a walk of the index's candidates, more matched than a
	// ranked answer takes (a common word).
	Dense  bool   `json:"d,omitempty"`
	Mid    bool   `json:"m,omitempty"`
	Hash   string `json:"h,omitempty"`
	Byte   int64  `json:"b,omitempty"`
	Char   int64  `json:"c,omitempty"`
	Line   int64  `json:"l,omitempty"`
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
	if err := json.Unmarshal(b, &c); err != nil || c.Path == "" || c.Byte < 0 || c.Char < 0 || c.Accept < c.Char || c.Skip < 0 {
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

func (t *Service) runSearch(ctx context.Context, call toolCall) (any, string, error) {
	query := call.args.str("query")
	if strings.TrimSpace(query) == "" {
		return nil, "", invalidArgs("search: \"query\" must contain more than spaces")
	}
	mode, query, err := searchMode(call, query, t.Meaning() != nil)
	if err != nil {
		return nil, "", err
	}
	glob, err := index.ParseGlob(call.args.str("path"))
	if err != nil {
		return nil, "", queryErr(err)
	}
	var cur searchCursor
	if off := call.args.str("offset"); off != "" {
		if cur, err = decodeCursor(off, call); err != nil {
			return nil, "", err
		}
	}
	if mode != ModeLiteral {
		return t.runRanked(ctx, call, query, mode, glob, cur)
	}
	if cur.Skip > 0 {
		return nil, "", invalidArgs("search: this offset continues a ranked search; pass mode \"ranked\" again, or omit offset to start again")
	}
	opts := index.Options{CaseSensitive: call.args.boolean("case_sensitive"), Regex: call.args.boolean("regex")}
	sc, err := index.NewScanner(query, opts, index.SnippetRadius, index.ChunkBytes)
	if err != nil {
		return nil, "", queryErr(err)
	}
	lits, err := index.Literals(query, opts.Regex)
	if err != nil {
		return nil, "", queryErr(err)
	}
	p := &hitPage{t: t, call: call, glob: glob, cur: cur, budget: MaxSearchPageBytes, sc: sc,
		out: &SearchResult{URI: call.scopeURI(), Query: query, Hits: []SearchHit{}, Mode: "scan"}}
	// A file's own search reads the file: the index has nothing to narrow.
	useIndex := len(lits) > 0 && (cur.Path == "" || cur.Index) && (call.shared || call.node.IsDir())
	if useIndex {
		if useIndex, err = p.indexReady(ctx); err != nil {
			return nil, "", err
		}
	}
	if useIndex {
		err = t.searchIndexed(ctx, p, lits)
	} else {
		err = t.searchScanned(ctx, p)
	}
	if err != nil {
		return nil, "", err
	}
	if err := t.countPending(ctx, p); err != nil {
		return nil, "", err
	}
	return p.finish()
}

// runRanked answers a search in mode ranked, meaning or hybrid.
func (t *Service) runRanked(ctx context.Context, call toolCall, query, mode string, glob index.Glob, cur searchCursor) (any, string, error) {
	if cur.Path != "" && (!cur.Index || cur.Mid || cur.Skip == 0) {
		return nil, "", invalidArgs("search: this offset continues a literal search; pass the same mode as the search that returned it, or omit offset to start again")
	}
	p := &hitPage{t: t, call: call, glob: glob, cur: cur, budget: MaxSearchPageBytes,
		out: &SearchResult{URI: call.scopeURI(), Query: query, Hits: []SearchHit{}, Mode: mode}}
	if err := t.searchRetrieval(ctx, p, query, mode); err != nil {
		return nil, "", err
	}
	if err := t.countPending(ctx, p); err != nil {
		return nil, "", err
	}
	return p.finish()
}

// searchScanned reads every file of the scope in path order, up to
// SearchFilesPerPage files a page.
func (t *Service) searchScanned(ctx context.Context, p *hitPage) error {
	files, more, err := t.searchFiles(ctx, p.call, p.cur)
	if err != nil {
		return apierr.Internal("search: list files to scan", err)
	}
	p.remaining = more
	_, err = p.visitAll(ctx, files)
	return err
}

// searchFiles lists the files this page visits: the target itself when it
// is a file, else the next files below it in path order; more tells
// whether files remain after them.
func (t *Service) searchFiles(ctx context.Context, call toolCall, cur searchCursor) ([]store.Node, bool, error) {
	if call.shared {
		return t.searchSharedFiles(ctx, call, cur)
	}
	if !call.node.IsDir() {
		if cur.Path != "" && !cur.Mid {
			return nil, false, nil
		}
		return []store.Node{call.node}, false, nil
	}
	files, err := t.Store().WalkFiles(ctx, store.FindFiles{UserID: call.node.UserID, Dir: call.node.Path, After: cur.Path, Inclusive: cur.Mid, Limit: SearchFilesPerPage + 1})
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
func (t *Service) searchSharedFiles(ctx context.Context, call toolCall, cur searchCursor) ([]store.Node, bool, error) {
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
			files, err := t.Store().WalkFiles(ctx, store.FindFiles{UserID: r.UserID, Dir: r.Path, After: after, Inclusive: inclusive, Limit: need - len(out)})
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

func (t *Service) scanBlob(ctx context.Context, sc *index.Scanner, v store.FileVersion, start index.Pos, maxHits, countUpTo int, budget int64) (index.Result, error) {
	f, err := t.Blobs().OpenText(v.BlobHash)
	if err != nil && t.Gone(ctx, v.NodeID) {
		return index.Result{}, nil // deleted while the search walked: nothing to find
	}
	if err != nil {
		return index.Result{}, apierr.Internal("search: open blob "+v.BlobHash, err)
	}
	defer f.Close()
	res, err := sc.Scan(ctx, f, v.Size, start, maxHits, countUpTo, budget)
	if err != nil {
		if ctx.Err() != nil {
			return index.Result{}, ctx.Err()
		}
		return index.Result{}, apierr.Internal("search: scan blob", err)
	}
	return res, nil
}

// queryErr words a query the index refused (a bad regex or glob) as the
// caller's error.
func queryErr(err error) error {
	if qe, ok := errors.AsType[*index.QueryError](err); ok {
		return invalidArgs("%s", qe.Error())
	}
	return apierr.Internal("search query", err)
}

// countPending counts, on a search's first page, the documents in its
// scope whose text is still being extracted: they are not searched yet.
func (t *Service) countPending(ctx context.Context, p *hitPage) error {
	if !t.AutoExtracts() || p.cur.Path != "" {
		return nil
	}
	for _, r := range t.searchRoots(p.call) {
		waiting, _, err := t.Store().CountExtractions(ctx, r)
		if err != nil {
			return apierr.Internal("count pending extractions", err)
		}
		p.out.PendingFiles += int(waiting)
	}
	return nil
}
