package store

import "context"

// RankText is one column of a file's entry in the word index, cut by the
// caller (package rank): Words for a stemming tokenizer, CJK the Chinese
// and Japanese runs as space-separated bigrams.
type RankText struct{ Words, CJK string }

// RankDoc is a file's entry in the word index, one weighted column each.
type RankDoc struct{ Name, Title, Headings, Body RankText }

// maxRankTSBytes bounds the body cut into PostgreSQL's postings (once a
// tsvector, whose size is limited to 1 MB): a longer body is ranked by
// its beginning.
const maxRankTSBytes = 512 << 10

// writeRankFTS replaces d's row of SQLite's word index.
func (tx *Store) writeRankFTS(d SearchDoc, doc RankDoc) error {
	join := func(t RankText) string {
		if t.CJK == "" {
			return cleanSearchText(t.Words)
		}
		return cleanSearchText(t.Words + "\n" + t.CJK)
	}
	if err := tx.db.Exec(`DELETE FROM rank_fts WHERE rowid = ?`, d.NodeID).Error; err != nil {
		return err
	}
	return tx.db.Exec(`INSERT INTO rank_fts (rowid, name, title, headings, body) VALUES (?, ?, ?, ?, ?)`,
		d.NodeID, join(doc.Name), join(doc.Title), join(doc.Headings), join(doc.Body)).Error
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
	if s.dialect == DialectPostgres {
		return s.rankPostings(ctx, f)
	}
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

// CountUnranked counts the files below root with a text body the word
// index does not hold as it is now: waiting for the index writer, or too
// large to index. A ranked answer is not complete while there are any.
func (s *Store) CountUnranked(ctx context.Context, root SearchRoot) (int64, error) {
	var n int64
	err := root.under(s.db.WithContext(ctx).Table("nodes n").Joins("JOIN search_docs d ON d.node_id = n.id")).
		Where("n.kind = ? AND (d.pending OR NOT d.indexed)", KindFile).Count(&n).Error
	return n, translate(err)
}
