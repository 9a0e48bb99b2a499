package store

import (
	"context"
	"strings"

	"gorm.io/gorm"
)

// RankText is one column of a file's entry in the word index, cut by the
// caller (package rank): Words for a stemming tokenizer, CJK the Chinese
// and Japanese runs as space-separated bigrams.
type RankText struct{ Words, CJK string }

// RankDoc is a file's entry in the word index, one weighted column each.
type RankDoc struct{ Name, Title, Headings, Body RankText }

// maxRankTSBytes bounds the body PostgreSQL turns into a tsvector, whose
// size is limited to 1 MB: a longer body is ranked by its beginning.
const maxRankTSBytes = 512 << 10

// WriteRankDoc makes doc the word-index entry of d's node, unless d
// changed since it was read (then a later round writes the newer text).
// The index writer calls it before WriteSearchText marks the body
// indexed.
func (s *Store) WriteRankDoc(ctx context.Context, d SearchDoc, doc RankDoc) error {
	if s.dialect == DialectPostgres {
		body := doc.Body
		body.Words = clipBytes(body.Words, maxRankTSBytes)
		body.CJK = clipBytes(body.CJK, maxRankTSBytes/2)
		return translate(s.db.WithContext(ctx).Exec(`INSERT INTO rank_docs (node_id, doc, len)
SELECT ?, setweight(to_tsvector('english', ?), 'A') || setweight(to_tsvector('simple', ?), 'A') ||
	setweight(to_tsvector('english', ?), 'B') || setweight(to_tsvector('simple', ?), 'B') ||
	setweight(to_tsvector('english', ?), 'C') || setweight(to_tsvector('simple', ?), 'C') ||
	setweight(to_tsvector('english', ?), 'D') || setweight(to_tsvector('simple', ?), 'D'), ?
WHERE EXISTS (SELECT 1 FROM search_docs WHERE node_id = ? AND version_id = ? AND pending)
ON CONFLICT (node_id) DO UPDATE SET doc = excluded.doc, len = excluded.len`,
			d.NodeID, clean(doc.Name.Words), clean(doc.Name.CJK), clean(doc.Title.Words), clean(doc.Title.CJK),
			clean(doc.Headings.Words), clean(doc.Headings.CJK), clean(body.Words), clean(body.CJK),
			len(strings.Fields(body.Words))+len(strings.Fields(body.CJK)), d.NodeID, d.VersionID).Error)
	}
	join := func(t RankText) string {
		if t.CJK == "" {
			return clean(t.Words)
		}
		return clean(t.Words + "\n" + t.CJK)
	}
	return s.InTx(ctx, func(tx *Store) error {
		if still, err := tx.stillPending(d); err != nil || !still {
			return err
		}
		if err := tx.db.Exec(`DELETE FROM rank_fts WHERE rowid = ?`, d.NodeID).Error; err != nil {
			return err
		}
		return tx.db.Exec(`INSERT INTO rank_fts (rowid, name, title, headings, body) VALUES (?, ?, ?, ?, ?)`,
			d.NodeID, join(doc.Name), join(doc.Title), join(doc.Headings), join(doc.Body)).Error
	})
}

// clean keeps text the databases accept: no NUL, valid UTF-8.
func clean(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", " "), "\uFFFD")
}

func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// Column weights of ranked search: a query word in a file's name counts
// as much as ten in its body, in its title six, in a heading three.
const (
	rankWeightName     = 10
	rankWeightTitle    = 6
	rankWeightHeadings = 3
	rankWeightBody     = 1
)

// FindRanked asks the word index for the files below Root that hold any
// of the query's terms, best first: FTS5 is the query for SQLite's MATCH;
// PostgreSQL takes the Words (for its english configuration) and Bigrams
// (for its simple one), each term of letters and digits only.
type FindRanked struct {
	Root           SearchRoot
	FTS5           string
	Words, Bigrams []string
	Limit          int
}

// RankedNode is a file of a ranked answer with its score (higher is better;
// comparable within one answer only).
type RankedNode struct {
	Node
	Score float64
}

// RankFiles returns up to f.Limit files of f, best first. The root is part
// of the query, so another user's files and files outside a scope are
// never scored, let alone returned.
func (s *Store) RankFiles(ctx context.Context, f FindRanked) ([]RankedNode, error) {
	if s.dialect != DialectPostgres {
		if f.FTS5 == "" {
			return nil, nil
		}
		q := s.db.WithContext(ctx).Table("rank_fts f").
			Select("n.*, -bm25(rank_fts, ?, ?, ?, ?) AS score", rankWeightName, rankWeightTitle, rankWeightHeadings, rankWeightBody).
			Joins("JOIN nodes n ON n.id = f.rowid").
			Where("rank_fts MATCH ?", f.FTS5).Order("score DESC, n.path")
		var out []RankedNode
		err := f.Root.under(q).Where("n.kind = ?", KindFile).Limit(f.Limit).Find(&out).Error
		return out, translate(err)
	}
	if len(f.Words) == 0 && len(f.Bigrams) == 0 {
		return nil, nil
	}
	var out []RankedNode
	// As for the trigram index (SearchCandidates): the planner prices a
	// scan of rank_docs by its small heap, the vectors living in TOAST,
	// and would rather detoast and test every vector than ask the GIN
	// index. Within this transaction only, it may not.
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("SET LOCAL enable_seqscan = off").Error; err != nil {
			return err
		}
		words, bigrams, err := selectiveTerms(tx, f.Words, f.Bigrams)
		if err != nil {
			return err
		}
		// ts_rank's weights are {D, C, B, A}; normalization 1 divides by
		// 1 + log(length), so a long page does not win by its length alone.
		q := tx.Table("rank_docs r").
			Select(`n.*, ts_rank('{0.1, 0.3, 0.6, 1.0}'::float4[], r.doc, rq.q, 1) AS score`).
			Joins("JOIN nodes n ON n.id = r.node_id").
			Joins(`CROSS JOIN (SELECT to_tsquery('english', ?) || to_tsquery('simple', ?) AS q, to_tsquery('english', ?) || to_tsquery('simple', ?) AS m) rq`,
				strings.Join(f.Words, " | "), strings.Join(f.Bigrams, " | "), strings.Join(words, " | "), strings.Join(bigrams, " | ")).
			Where("r.doc @@ rq.m").Order("score DESC, n.path")
		return f.Root.under(q).Where("n.kind = ?", KindFile).Limit(f.Limit).Find(&out).Error
	})
	return out, translate(err)
}

// CountUnranked counts the files below root with a text body the word
// index does not hold as it is now: waiting for the index writer, or too
// large to index. A ranked answer is not complete while there are any.
func (s *Store) CountUnranked(ctx context.Context, root SearchRoot) (int64, error) {
	var n int64
	err := root.under(s.db.WithContext(ctx).Table("nodes n").Joins("JOIN search_docs d ON d.node_id = n.id")).
		Where("n.kind = ? AND (d.pending OR NOT d.indexed)", KindFile).Count(&n).Error
	return n, translate(err)
}

// selectiveTerms returns the terms a PostgreSQL ranked query looks files up
// by: those in at most a third of the index's files, unless none is. A
// common word still counts in the score, but matching by it would have
// ts_rank read (and detoast) the vector of nearly every file, for files
// that rank low anyway: BM25's idf gives such a word almost no weight.
func selectiveTerms(tx *gorm.DB, words, bigrams []string) ([]string, []string, error) {
	sel := []string{"(SELECT COUNT(*) FROM rank_docs)"}
	var args []any
	for _, w := range words {
		sel, args = append(sel, "(SELECT COUNT(*) FROM rank_docs WHERE doc @@ to_tsquery('english', ?))"), append(args, w)
	}
	for _, b := range bigrams {
		sel, args = append(sel, "(SELECT COUNT(*) FROM rank_docs WHERE doc @@ to_tsquery('simple', ?))"), append(args, b)
	}
	counts := make([]int64, len(sel))
	dest := make([]any, len(sel))
	for i := range counts {
		dest[i] = &counts[i]
	}
	if err := tx.Raw("SELECT "+strings.Join(sel, ", "), args...).Row().Scan(dest...); err != nil {
		return nil, nil, err
	}
	common := func(i int) bool { return counts[i+1]*3 > counts[0] }
	var w, b []string
	for i, t := range words {
		if !common(i) {
			w = append(w, t)
		}
	}
	for i, t := range bigrams {
		if !common(len(words) + i) {
			b = append(b, t)
		}
	}
	if len(w) == 0 && len(b) == 0 {
		return words, bigrams, nil
	}
	return w, b, nil
}
