package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"gorm.io/gorm"
)

// BM25's constants, FTS5's defaults: how soon a word's repetitions stop
// counting (k1) and how much a long body is discounted (b).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// postings is a file's word-index entry: its body's length in words, and
// each lexeme (lexemes.go) with its occurrences weighted by column.
type postings struct {
	nodeID int64
	len    int
	tf     map[string]float32
}

// rankPostingsOf cuts node's doc into postings; a body past
// maxRankTSBytes is ranked by its beginning.
func rankPostingsOf(node int64, doc RankDoc) postings {
	body := doc.Body
	body.Words = clipBytes(body.Words, maxRankTSBytes)
	body.CJK = clipBytes(body.CJK, maxRankTSBytes/2)
	p := postings{nodeID: node, len: countFields(body.Words) + countFields(body.CJK), tf: map[string]float32{}}
	for _, c := range []struct {
		t      RankText
		weight float32
	}{{doc.Name, rankWeightName}, {doc.Title, rankWeightTitle}, {doc.Headings, rankWeightHeadings}, {body, rankWeightBody}} {
		lexemeCounts(p.tf, c.t.Words, c.weight)
		bigramCounts(p.tf, c.t.CJK, c.weight)
	}
	return p
}

// insertPostings writes the postings of files whose rank_docs rows are
// written, in one statement sorted by lexeme: consecutive rows then land
// in the same pages of the primary key, which cost a quarter less than a
// statement per file landing all over it (measured against a 2.8 million
// row index).
func (tx *Store) insertPostings(ps []postings) error {
	type row struct {
		term string
		node int64
		tf   float32
	}
	var rows []row
	for _, p := range ps {
		for term, tf := range p.tf {
			rows = append(rows, row{term, p.nodeID, tf})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Or(strings.Compare(a.term, b.term), cmp.Compare(a.node, b.node)) })
	terms, nodes, tfs := make([]string, len(rows)), make([]int64, len(rows)), make([]float32, len(rows))
	for i, r := range rows {
		terms[i], nodes[i], tfs[i] = r.term, r.node, r.tf
	}
	return tx.db.Exec(`INSERT INTO rank_terms (term, user_id, node_id, tf)
SELECT t.term, r.user_id, t.node_id, t.tf
FROM unnest(?::text[], ?::int8[], ?::float4[]) WITH ORDINALITY AS t(term, node_id, tf, i)
JOIN rank_docs r ON r.node_id = t.node_id
ORDER BY t.i`, pgArray(terms), pgArray(nodes), pgArray(tfs)).Error
}

// rankPostings scores BM25 on PostgreSQL from the postings of the query's
// words among the root owner's files: idf from how many of them hold each
// word, the body's length against their average. Only the query's own
// postings are read, from the covering primary key, so a question of
// common words costs one small index entry per file holding them.
//
// The plan is fixed by the query's shape rather than left to statistics,
// which lag far behind a bulk import: each step is materialized once, and
// each scored file is looked up by its id (the OFFSET 0 keeps the planner
// from walking the root's whole path range once per file instead).
func (s *Store) rankPostings(ctx context.Context, f FindRanked) ([]RankedNode, error) {
	if len(f.Words) == 0 && len(f.Bigrams) == 0 {
		return nil, nil
	}
	root, rootArgs := f.Root.cond()
	args := []any{pgArray(queryLexemes(f.Words, f.Bigrams)), f.Root.UserID, f.Root.UserID}
	args = append(append(args, rootArgs...), KindFile, f.Limit)
	var out []RankedNode
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// A bitmap scan would visit a heap page per posting; the index
		// holds all the query needs.
		if err := tx.Exec("SET LOCAL enable_bitmapscan = off").Error; err != nil {
			return err
		}
		return tx.Raw(fmt.Sprintf(`WITH q AS MATERIALIZED (
	SELECT unnest(?::text[]) AS term
), st AS MATERIALIZED (
	SELECT COUNT(*)::float8 AS docs, GREATEST(COALESCE(AVG(len), 0), 1)::float8 AS avglen FROM rank_docs WHERE user_id = ?
), p AS MATERIALIZED (
	SELECT t.term, t.node_id, t.tf, COUNT(*) OVER (PARTITION BY t.term)::float8 AS df
	FROM rank_terms t WHERE t.user_id = ? AND t.term IN (SELECT term FROM q)
), s AS MATERIALIZED (
	SELECT p.node_id, SUM(ln(1 + (st.docs - p.df + 0.5) / (p.df + 0.5)) * p.tf * %[1]g
		/ (p.tf + %[2]g * (1 - %[3]g + %[3]g * r.len / st.avglen))) AS score
	FROM p JOIN rank_docs r ON r.node_id = p.node_id CROSS JOIN st
	GROUP BY p.node_id
)
SELECT n.*, s.score FROM s CROSS JOIN LATERAL (SELECT * FROM nodes WHERE id = s.node_id OFFSET 0) n
WHERE %[4]s AND n.kind = ?
ORDER BY s.score DESC, n.path LIMIT ?`, bm25K1+1, bm25K1, bm25B, root), args...).Scan(&out).Error
	})
	return out, translate(err)
}
