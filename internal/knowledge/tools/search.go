package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Search kinds of GET /search.
const (
	SearchAll     = "all"
	SearchName    = "name"
	SearchContent = "content"
)

// maxNameHits bounds the name matches of one search answer.
const maxNameHits = 50

// SearchParams is a search for people and scripts (GET /search): the
// search tool's arguments plus which kinds of match to return.
type SearchParams struct {
	URI, Query, Kind, Cursor string
	// Mode is literal (the default: scripts rely on it) or ranked.
	Mode                 string
	CaseSensitive, Regex bool
	Path                 string
}

// NameHit is a node whose name contains the query.
type NameHit struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// SearchPage is one answer of GET /search: the search tool's result, with
// name matches on the first page.
type SearchPage struct {
	*SearchResult
	Kind          string    `json:"kind"`
	Names         []NameHit `json:"names"`
	NamesComplete bool      `json:"names_complete"`
}

// Search runs the content search with the uri as its scope and adds the
// nodes whose names match, both on one resolution of the uri. A cursor
// continues the content hits only: names come whole on the first page.
func (t *Service) Search(ctx context.Context, c kb.Caller, p SearchParams) (*SearchPage, error) {
	if p.Kind == "" {
		p.Kind = SearchAll
	}
	if p.Kind != SearchAll && p.Kind != SearchName && p.Kind != SearchContent {
		return nil, apierr.BadRequest(apierr.CodeInvalidKind, "kind must be all, name or content, not %q", kb.Clip(p.Kind, 40))
	}
	args := map[string]any{"uri": p.URI, "query": p.Query}
	if p.Cursor != "" {
		args["offset"] = p.Cursor
	}
	if p.Path != "" {
		args["path"] = p.Path
	}
	if p.Mode != "" {
		if !slices.Contains(searchModes, p.Mode) {
			return nil, apierr.BadRequest(apierr.CodeInvalidSearchMode, "mode must be one of %s, not %q", strings.Join(searchModes, ", "), kb.Clip(p.Mode, 40))
		}
		args["mode"] = p.Mode
	}
	if p.CaseSensitive {
		args["case_sensitive"] = true
	}
	if p.Regex {
		args["regex"] = true
	}
	raw, _ := json.Marshal(args)
	a, err := decodeArgs("search", searchTool.args, raw)
	if err != nil {
		return nil, err
	}
	sc, err := t.commandScope(ctx, c, p.URI)
	if err != nil {
		return nil, err
	}
	call, err := t.callIn(ctx, c, sc, a)
	if err != nil {
		return nil, err
	}
	page := &SearchPage{Kind: p.Kind, Names: []NameHit{}, NamesComplete: true,
		SearchResult: &SearchResult{URI: sc.name(), Query: p.Query, Hits: []SearchHit{}, Complete: true}}
	if p.Kind != SearchName {
		res, err := t.runCall(ctx, call, searchTool)
		if err != nil {
			return nil, err
		}
		page.SearchResult = res.Value.(*SearchResult)
	}
	if p.Kind != SearchContent && p.Cursor == "" {
		page.Names, page.NamesComplete, err = t.searchNames(ctx, call, p.Query)
		if err != nil {
			return nil, err
		}
	}
	return page, nil
}

// searchNames finds the nodes in the call's scope whose names contain the
// query ignoring case (or matching the path filter's glob), best first: a
// name equal to the query, then names that start with it, then path order.
func (t *Service) searchNames(ctx context.Context, call toolCall, query string) ([]NameHit, bool, error) {
	glob, err := index.ParseGlob(call.args.str("path"))
	if err != nil {
		return nil, false, queryErr(err)
	}
	needle := string(index.FoldQuery(query))
	type found struct {
		hit  NameHit
		rank int
		path string
	}
	var out []found
	complete := true
	for _, r := range t.searchRoots(call) {
		const fetch = 5000
		ns, err := t.Store().SearchNames(ctx, r, strings.TrimSpace(query), fetch)
		if err != nil {
			return nil, false, apierr.Internal("search names", err)
		}
		if len(ns) == fetch {
			complete = false
		}
		for i, n := range ns {
			if i%256 == 0 && ctx.Err() != nil {
				return nil, false, ctx.Err()
			}
			fn, _ := index.Fold(nil, []byte(n.Name), nil)
			at := strings.Index(string(fn), needle)
			if at < 0 || !glob.Match(relPath(call.baseOf(n), n.Path)) {
				continue
			}
			rank := 2
			if len(fn) == len(needle) {
				rank = 0
			} else if at == 0 {
				rank = 1
			}
			uri := kb.NodeURI(call.ownerOf(n), n.Path, n.IsDir())
			out = append(out, found{hit: NameHit{URI: uri, Name: n.Name, Kind: n.Kind}, rank: rank, path: uri})
		}
	}
	slices.SortStableFunc(out, func(a, b found) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return strings.Compare(a.path, b.path)
	})
	if len(out) > maxNameHits {
		out, complete = out[:maxNameHits], false
	}
	hits := make([]NameHit, len(out))
	for i, f := range out {
		hits[i] = f.hit
	}
	return hits, complete, nil
}

// searchRoots are the places a call searches: its target, or for
// kb://shared/ every root shared with the caller now.
func (t *Service) searchRoots(call toolCall) []store.SearchRoot {
	if !call.shared {
		return []store.SearchRoot{{UserID: call.node.UserID, Path: call.node.Path, Dir: call.node.IsDir()}}
	}
	out := make([]store.SearchRoot, len(call.roots))
	for i, r := range call.roots {
		out[i] = store.SearchRoot{UserID: r.UserID, Path: r.Path, Dir: r.IsDir()}
	}
	return out
}

func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// relPath is p relative to the folder base ("" for the root).
func relPath(base, p string) string {
	if base == "" {
		return p
	}
	return strings.TrimPrefix(p, base+"/")
}
