package evalsearch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store"
)

// maxPages bounds the pages one question's search follows to reach Depth
// files: a literal search read a page at a time (a short query) shows
// few files a page.
const maxPages = 25

// Searcher is what an evaluation needs of the knowledge tools
// (*tools.Service): the search the REST door runs, and a uri resolved as
// the caller may read it.
type Searcher interface {
	Search(ctx context.Context, c kb.Caller, p tools.SearchParams) (*tools.SearchPage, error)
	Resolve(ctx context.Context, c kb.Caller, raw string) (kb.URI, store.Node, error)
}

// Request is one evaluation: the questions, asked below URI in each of
// Modes (every search mode when empty).
type Request struct {
	URI       string
	Questions []Question
	Modes     []string
}

// Report is what an evaluation found.
type Report struct {
	URI string `json:"uri"`
	// Questions counts the questions scored: those with at least one
	// answer file found below uri.
	Questions int          `json:"questions"`
	Modes     []ModeReport `json:"modes"`
	// UnknownAnswers are the answers that name no file the caller may
	// read below uri; a question left with none is not scored.
	UnknownAnswers []UnknownAnswer `json:"unknown_answers"`
	// Waiting: some searches said files were still having their text
	// extracted, indexed or embedded, so they could not be found yet.
	Waiting bool `json:"waiting"`
}

// ModeReport is one search mode's figures.
type ModeReport struct {
	Mode string `json:"mode"`
	// Unavailable says why the server cannot search in this mode: no
	// embedding model, or one that failed to embed a question (then the
	// questions before it are not scored either); the figures are zero.
	Unavailable string `json:"unavailable,omitempty"`
	Figures
	// MedianLatencyMS is the median time of one question's search, in
	// milliseconds, with the pages it followed.
	MedianLatencyMS float64 `json:"median_latency_ms"`
	// Failed counts questions the search refused (a ranked search of a
	// question with no words); they count as not found. Failure is the
	// first refusal, after the line of its question.
	Failed  int    `json:"failed"`
	Failure string `json:"failure,omitempty"`
}

// UnknownAnswer is an answer that names no file the search could find.
type UnknownAnswer struct {
	Line   int    `json:"line"`
	Answer string `json:"answer"`
	Reason string `json:"reason"`
}

// CheckModes returns the modes an evaluation asks in, in the search
// tool's order: every mode for none; an unknown one is invalid_search_mode.
func CheckModes(modes []string) ([]string, error) {
	all := tools.SearchModes()
	if len(modes) == 0 {
		return all, nil
	}
	for _, m := range modes {
		if !slices.Contains(all, m) {
			return nil, apierr.BadRequest(apierr.CodeInvalidSearchMode, "modes: %q is not a search mode; the modes are %s", kb.Clip(m, 40), strings.Join(all, ", "))
		}
	}
	return slices.DeleteFunc(all, func(m string) bool { return !slices.Contains(modes, m) }), nil
}

// Run asks every question below r.URI in each mode as caller c, through
// the search every door runs, and scores each mode. A mode the search
// refuses for want of an embedding model, or whose model fails, is
// reported unavailable; a uri the caller cannot read is the search's own
// error.
func Run(ctx context.Context, s Searcher, c kb.Caller, r Request) (Report, error) {
	modes, err := CheckModes(r.Modes)
	if err != nil {
		return Report{}, err
	}
	sc, err := resolveScope(ctx, s, c, r.URI)
	if err != nil {
		return Report{}, err
	}
	rep := Report{URI: sc.uri, Modes: []ModeReport{}, UnknownAnswers: []UnknownAnswer{}}
	type scored struct {
		q       Question
		answers []string
	}
	var asked []scored
	seen := map[string]answerOf{}
	for _, q := range r.Questions {
		var known []string
		for _, a := range q.Answers {
			res, ok := seen[a]
			if !ok {
				if res, err = sc.answer(ctx, s, c, a); err != nil {
					return Report{}, err
				}
				seen[a] = res
			}
			if res.reason != "" {
				rep.UnknownAnswers = append(rep.UnknownAnswers, UnknownAnswer{Line: q.Line, Answer: a, Reason: res.reason})
				continue
			}
			known = append(known, res.uri)
		}
		if len(known) > 0 {
			asked = append(asked, scored{q, known})
		}
	}
	rep.Questions = len(asked)
	for _, mode := range modes {
		m := ModeReport{Mode: mode}
		var firsts []int
		var took []time.Duration
		for _, a := range asked {
			start := time.Now()
			rk, err := rank(ctx, s, c, sc.uri, a.q.Question, mode, Depth)
			took = append(took, time.Since(start))
			if e, ok := apierr.As(err); ok && (e.Code == apierr.CodeNoEmbeddingModel || e.Code == apierr.CodeEmbeddingFailed) {
				m.Unavailable = e.Message
				break
			}
			if e, ok := apierr.As(err); ok && e.Status < 500 {
				m.Failed++
				if m.Failure == "" {
					m.Failure = fmt.Sprintf("line %d: %s", a.q.Line, e.Message)
				}
			} else if err != nil {
				return Report{}, fmt.Errorf("search %s in mode %s: %w", sc.uri, mode, err)
			}
			rep.Waiting = rep.Waiting || rk.waiting
			firsts = append(firsts, FirstRank(rk.files, a.answers))
		}
		if m.Unavailable == "" {
			m.Figures = Measure(firsts)
			m.MedianLatencyMS = medianMS(took)
		} else {
			m.Failed, m.Failure = 0, ""
		}
		rep.Modes = append(rep.Modes, m)
	}
	return rep, nil
}

// Files asks query below uri in mode as the REST search does (content
// only) and returns the distinct files of its hits, best first, following
// pages until it has n of them.
func Files(ctx context.Context, s Searcher, c kb.Caller, uri, query, mode string, n int) ([]string, error) {
	rk, err := rank(ctx, s, c, uri, query, mode, n)
	return rk.files, err
}

type ranking struct {
	files   []string
	waiting bool // files in scope were still being extracted, indexed or embedded
}

func rank(ctx context.Context, s Searcher, c kb.Caller, uri, query, mode string, n int) (ranking, error) {
	var out ranking
	p := tools.SearchParams{URI: uri, Query: query, Mode: mode, Kind: tools.SearchContent}
	for range maxPages {
		page, err := s.Search(ctx, c, p)
		if err != nil {
			return out, err
		}
		out.waiting = out.waiting || page.PendingFiles > 0 || page.UnrankedFiles > 0 || page.UnembeddedFiles > 0
		for _, h := range page.Hits {
			if !slices.Contains(out.files, h.URI) {
				out.files = append(out.files, h.URI)
			}
		}
		if len(out.files) >= n || page.NextOffset == nil {
			break
		}
		p.Cursor = *page.NextOffset
	}
	out.files = out.files[:min(len(out.files), n)]
	return out, nil
}

// scope is the evaluated uri as the search answers it.
type scope struct {
	uri    string // canonical: kb://users/<owner>/<path>[/], or kb://shared/
	dir    bool
	shared bool
}

func resolveScope(ctx context.Context, s Searcher, c kb.Caller, raw string) (scope, error) {
	if kb.IsSharedURI(raw) {
		return scope{uri: kb.SharedURI, dir: true, shared: true}, nil
	}
	u, n, err := s.Resolve(ctx, c, raw)
	if err != nil {
		return scope{}, err
	}
	return scope{uri: kb.NodeURI(u.Username, n.Path, n.IsDir()), dir: n.IsDir()}, nil
}

// answerOf is an answer resolved: the file's canonical uri, or the reason
// the search cannot find it.
type answerOf struct {
	uri, reason string
}

// answer resolves one answer of a question: a kb:// URI, or a path below
// the scope folder.
func (sc scope) answer(ctx context.Context, s Searcher, c kb.Caller, a string) (answerOf, error) {
	raw := a
	if !strings.HasPrefix(a, kb.Scheme) {
		if sc.shared || !sc.dir {
			return answerOf{reason: "a path relative to uri needs uri to be one folder; give the file's kb:// URI"}, nil
		}
		raw = sc.uri + strings.TrimPrefix(strings.TrimPrefix(a, "./"), "/")
	}
	u, n, err := s.Resolve(ctx, c, raw)
	if e, ok := apierr.As(err); ok && e.Status == 404 {
		return answerOf{reason: "no such file, or the user may not read it"}, nil
	}
	if e, ok := apierr.As(err); ok && e.Status < 500 {
		return answerOf{reason: e.Message}, nil
	}
	if err != nil {
		return answerOf{}, err
	}
	if n.IsDir() {
		return answerOf{reason: "a folder, not a file"}, nil
	}
	uri := kb.NodeURI(u.Username, n.Path, false)
	if !sc.shared && uri != sc.uri && !(sc.dir && strings.HasPrefix(uri, sc.uri)) {
		return answerOf{reason: fmt.Sprintf("outside %s, so the search cannot find it", sc.uri)}, nil
	}
	return answerOf{uri: uri}, nil
}

// medianMS is the median of ds in milliseconds, to the microsecond.
func medianMS(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	m := ds[len(ds)/2]
	if len(ds)%2 == 0 {
		m = (ds[len(ds)/2-1] + m) / 2
	}
	return float64(m.Microseconds()) / 1000
}
