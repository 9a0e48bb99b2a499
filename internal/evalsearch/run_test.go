package evalsearch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/evalsearch"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store"
)

// fakeSearch answers from fixed rankings: for each mode and query the
// files of its hits, in pages of pageFiles files, a file shown twice on a
// page (two passages); meaning and hybrid are refused as without an
// embedding model. Its tree holds alice's folder docs/ and the files of
// files.
type fakeSearch struct {
	ranks     map[string][]string // mode + "|" + query → file paths below docs/
	files     []string            // paths below alice's root
	pageFiles int
	asked     []tools.SearchParams
	// embedding: meaning and hybrid run, on the rankings of ranked, but
	// the model fails once failAfter questions were embedded; unembedded
	// files are reported.
	embedding bool
	failAfter int
}

func (f *fakeSearch) Search(_ context.Context, c kb.Caller, p tools.SearchParams) (*tools.SearchPage, error) {
	f.asked = append(f.asked, p)
	meaning := p.Mode == tools.ModeMeaning || p.Mode == tools.ModeHybrid
	if meaning && !f.embedding {
		return nil, apierr.BadRequest(apierr.CodeNoEmbeddingModel, "search mode %q needs an embedding model", p.Mode)
	}
	if meaning && p.Cursor == "" {
		if f.failAfter == 0 {
			return nil, apierr.New(http.StatusBadGateway, apierr.CodeEmbeddingFailed, "the embedding model e did not embed the query (timeout)")
		}
		f.failAfter--
	}
	if p.Query == "broken" {
		return nil, errors.New("disk on fire")
	}
	if p.Mode == tools.ModeRanked && p.Query == "???" {
		return nil, apierr.BadRequest(apierr.CodeInvalidArguments, "search: mode \"ranked\" needs a query with at least one word")
	}
	mode := p.Mode
	if meaning {
		mode = tools.ModeRanked
	}
	all := f.ranks[mode+"|"+p.Query]
	start := 0
	if p.Cursor != "" {
		fmt.Sscan(p.Cursor, &start)
	}
	end := min(start+f.pageFiles, len(all))
	res := &tools.SearchResult{URI: p.URI, Query: p.Query, Hits: []tools.SearchHit{}}
	for _, path := range all[start:end] {
		u := kb.NodeURI(c.Username, "docs/"+path, false)
		res.Hits = append(res.Hits, tools.SearchHit{URI: u}, tools.SearchHit{URI: u})
	}
	if end < len(all) {
		next := fmt.Sprint(end)
		res.NextOffset = &next
	}
	if meaning {
		res.UnembeddedFiles = 1
	}
	return &tools.SearchPage{SearchResult: res}, nil
}

func (f *fakeSearch) Resolve(_ context.Context, c kb.Caller, raw string) (kb.URI, store.Node, error) {
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return kb.URI{}, store.Node{}, err
	}
	if u.Username == c.Username && (u.Path == "" || u.Path == "docs") {
		return u, store.Node{Path: u.Path, Kind: store.KindDir}, nil
	}
	for _, p := range f.files {
		if u.Username == c.Username && u.Path == p {
			return u, store.Node{Path: p, Kind: store.KindFile}, nil
		}
	}
	return kb.URI{}, store.Node{}, apierr.NotFound(apierr.CodeNotFound, "no such resource: %s", raw)
}

var alice = kb.Caller{ID: 7, Username: "alice"}

func newFake() *fakeSearch {
	twelve := make([]string, 12)
	for i := range twelve {
		twelve[i] = fmt.Sprintf("f%02d.md", i+1)
	}
	return &fakeSearch{
		pageFiles: 4,
		files:     append([]string{"docs/gzip.md", "docs/tar.md", "notes.md"}, prefixed("docs/", twelve)...),
		ranks: map[string][]string{
			"literal|read compressed files": {},
			"ranked|read compressed files":  {"gzip.md", "tar.md"},
			"literal|tar":                   {"gzip.md", "tar.md"},
			"ranked|tar":                    {"tar.md"},
			"literal|deep":                  twelve,
			"ranked|deep":                   twelve,
		},
	}
}

func prefixed(p string, ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p + s
	}
	return out
}

// TestRunScoresEachMode: each mode's figures follow from its rankings;
// pages are followed until ten files; meaning and hybrid are reported
// unavailable with the search's reason; answers that name no readable
// file below uri are reported, and a question left with none is not
// scored.
func TestRunScoresEachMode(t *testing.T) {
	t.Parallel()
	f := newFake()
	qs := []evalsearch.Question{
		{Question: "read compressed files", Answers: []string{"kb://me/docs/gzip.md"}, Line: 1},
		{Question: "tar", Answers: []string{"tar.md", "kb://users/alice/docs/missing.md"}, Line: 2},
		{Question: "deep", Answers: []string{"./f10.md"}, Line: 4},
		{Question: "lost", Answers: []string{"nowhere.md", "kb://me/notes.md", "kb://me/docs/"}, Line: 5},
	}
	rep, err := evalsearch.Run(context.Background(), f, alice, evalsearch.Request{URI: "kb://me/docs", Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	if rep.URI != "kb://users/alice/docs/" || rep.Questions != 3 {
		t.Fatalf("uri %s, questions %d", rep.URI, rep.Questions)
	}
	got := map[string]evalsearch.ModeReport{}
	var order []string
	for _, m := range rep.Modes {
		got[m.Mode] = m
		order = append(order, m.Mode)
	}
	if strings.Join(order, " ") != "literal ranked hybrid meaning" {
		t.Fatalf("modes %v", order)
	}
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	// literal: question 1 not found, tar at 2, deep at 10.
	if l := got["literal"]; l.Questions != 3 || !near(l.RecallAt1, 0) || !near(l.RecallAt5, 1.0/3) || !near(l.RecallAt10, 2.0/3) ||
		!near(l.MRRAt10, (0.5+0.1)/3) || l.Unavailable != "" {
		t.Errorf("literal: %+v", l)
	}
	// ranked: gzip at 1, tar at 1, deep at 10.
	if r := got["ranked"]; r.Questions != 3 || !near(r.RecallAt1, 2.0/3) || !near(r.RecallAt10, 1) || !near(r.MRRAt10, (1+1+0.1)/3) {
		t.Errorf("ranked: %+v", r)
	}
	for _, m := range []string{"hybrid", "meaning"} {
		if u := got[m]; !strings.Contains(u.Unavailable, "needs an embedding model") || u.Questions != 0 {
			t.Errorf("%s: %+v", m, u)
		}
	}
	var unknown []string
	for _, u := range rep.UnknownAnswers {
		unknown = append(unknown, fmt.Sprintf("%d %s: %s", u.Line, u.Answer, u.Reason))
	}
	want := []string{
		"2 kb://users/alice/docs/missing.md: no such file, or the user may not read it",
		"5 nowhere.md: no such file, or the user may not read it",
		"5 kb://me/notes.md: outside kb://users/alice/docs/, so the search cannot find it",
		"5 kb://me/docs/: a folder, not a file",
	}
	if strings.Join(unknown, "\n") != strings.Join(want, "\n") {
		t.Errorf("unknown answers:\n%s\nwant:\n%s", strings.Join(unknown, "\n"), strings.Join(want, "\n"))
	}
	// The deep question took three pages of four files in each scored
	// mode, and every search asked for content only.
	pages := 0
	for _, p := range f.asked {
		if p.Query == "deep" && p.Mode == "ranked" {
			pages++
		}
		if p.Kind != tools.SearchContent || p.URI != "kb://users/alice/docs/" {
			t.Errorf("search asked with %+v", p)
		}
	}
	if pages != 3 {
		t.Errorf("deep question: %d pages in ranked, want 3", pages)
	}
}

// TestRunModesAndRefusals: a chosen subset of modes runs alone; a search
// that refuses one question counts it as not found and says why; an
// unknown mode, an unreadable uri and a failing search are errors.
func TestRunModesAndRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	qs := []evalsearch.Question{
		{Question: "tar", Answers: []string{"tar.md"}, Line: 1},
		{Question: "???", Answers: []string{"tar.md"}, Line: 2},
	}
	rep, err := evalsearch.Run(ctx, newFake(), alice, evalsearch.Request{URI: "kb://me/docs/", Questions: qs, Modes: []string{"ranked"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Modes) != 1 || rep.Modes[0].Mode != "ranked" {
		t.Fatalf("modes %+v", rep.Modes)
	}
	r := rep.Modes[0]
	if r.Questions != 2 || r.RecallAt1 != 0.5 || r.Failed != 1 || !strings.Contains(r.Failure, "line 2: search: mode \"ranked\" needs a query") {
		t.Errorf("ranked: %+v", r)
	}

	_, err = evalsearch.Run(ctx, newFake(), alice, evalsearch.Request{URI: "kb://me/docs/", Questions: qs, Modes: []string{"ranked", "fuzzy"}})
	if e, ok := apierr.As(err); !ok || e.Code != apierr.CodeInvalidSearchMode || !strings.Contains(e.Message, `"fuzzy"`) {
		t.Errorf("unknown mode: %v", err)
	}
	_, err = evalsearch.Run(ctx, newFake(), alice, evalsearch.Request{URI: "kb://users/bob/", Questions: qs})
	if e, ok := apierr.As(err); !ok || e.Code != apierr.CodeNotFound {
		t.Errorf("a uri alice cannot read: %v", err)
	}
	_, err = evalsearch.Run(ctx, newFake(), alice, evalsearch.Request{URI: "kb://me/docs/", Questions: []evalsearch.Question{{Question: "broken", Answers: []string{"tar.md"}, Line: 1}}})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("a failing search: %v", err)
	}
}

// TestRunWithAnEmbeddingModel: with an embedding model meaning and hybrid
// are scored, and files still waiting for their vectors are told; a model
// that fails mid-way makes its mode unavailable, with the model's error,
// rather than failing the evaluation.
func TestRunWithAnEmbeddingModel(t *testing.T) {
	t.Parallel()
	qs := []evalsearch.Question{
		{Question: "tar", Answers: []string{"tar.md"}, Line: 1},
		{Question: "read compressed files", Answers: []string{"gzip.md"}, Line: 2},
	}
	f := newFake()
	f.embedding, f.failAfter = true, 1000
	rep, err := evalsearch.Run(context.Background(), f, alice, evalsearch.Request{URI: "kb://me/docs/", Questions: qs, Modes: []string{"meaning", "hybrid"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Modes) != 2 || rep.Modes[0].Mode != "hybrid" || rep.Modes[1].Mode != "meaning" || !rep.Waiting {
		t.Fatalf("report %+v", rep)
	}
	for _, m := range rep.Modes {
		if m.Unavailable != "" || m.Questions != 2 || m.RecallAt1 != 1 {
			t.Errorf("%s: %+v", m.Mode, m)
		}
	}

	f = newFake()
	f.embedding, f.failAfter = true, 1
	rep, err = evalsearch.Run(context.Background(), f, alice, evalsearch.Request{URI: "kb://me/docs/", Questions: qs, Modes: []string{"ranked", "hybrid"}})
	if err != nil {
		t.Fatal(err)
	}
	if r, h := rep.Modes[0], rep.Modes[1]; r.Unavailable != "" || r.RecallAt1 != 1 ||
		!strings.Contains(h.Unavailable, "did not embed the query") || h.Questions != 0 || h.RecallAt1 != 0 {
		t.Errorf("ranked %+v, hybrid %+v", r, h)
	}
}
