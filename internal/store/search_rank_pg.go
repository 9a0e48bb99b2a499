package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"gorm.io/gorm"
)

// BM25's constants, FTS5's defaults: how soon a word's repetitions stop
// counting (k1) and how much a long body is discounted (b).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// writeRankPostings makes doc the postings of d's node on PostgreSQL: its
// length and owner in rank_docs, a row per word in rank_terms, unless d
// changed since it was read. PostgreSQL's own text search cuts the words
// (english stems, simple for the CJK bigrams), so a query's words, cut the
// same way, meet them.
func (s *Store) writeRankPostings(ctx context.Context, d SearchDoc, doc RankDoc) error {
	return s.InTx(ctx, func(tx *Store) error {
		p, ok, err := tx.putRankDoc(d, doc)
		if err != nil || !ok {
			return err
		}
		return tx.insertPostings([]postings{p})
	})
}

// postings is a file's word-index entry as insertPostings takes it.
type postings struct {
	NodeID int64  `json:"node_id"`
	NW     string `json:"nw"` // name, title, headings and body: their words
	NC     string `json:"nc"` // and their CJK bigrams
	TW     string `json:"tw"`
	TC     string `json:"tc"`
	HW     string `json:"hw"`
	HC     string `json:"hc"`
	BW     string `json:"bw"`
	BC     string `json:"bc"`
}

// putRankDoc writes d's row of rank_docs and drops its old postings,
// unless d changed since it was read (ok false); the new postings are
// insertPostings' to write.
func (tx *Store) putRankDoc(d SearchDoc, doc RankDoc) (p postings, ok bool, err error) {
	body := doc.Body
	body.Words = clipBytes(body.Words, maxRankTSBytes)
	body.CJK = clipBytes(body.CJK, maxRankTSBytes/2)
	res := tx.db.Exec(`INSERT INTO rank_docs (node_id, user_id, len)
SELECT n.id, n.user_id, ? FROM nodes n
WHERE n.id = ? AND EXISTS (SELECT 1 FROM search_docs WHERE node_id = n.id AND version_id = ? AND pending)
ON CONFLICT (node_id) DO UPDATE SET len = excluded.len`,
		len(strings.Fields(body.Words))+len(strings.Fields(body.CJK)), d.NodeID, d.VersionID)
	if res.Error != nil || res.RowsAffected == 0 {
		return postings{}, false, res.Error
	}
	if err := tx.db.Exec(`DELETE FROM rank_terms WHERE node_id = ?`, d.NodeID).Error; err != nil {
		return postings{}, false, err
	}
	return postings{NodeID: d.NodeID,
		NW: cleanSearchText(doc.Name.Words), NC: cleanSearchText(doc.Name.CJK), TW: cleanSearchText(doc.Title.Words), TC: cleanSearchText(doc.Title.CJK),
		HW: cleanSearchText(doc.Headings.Words), HC: cleanSearchText(doc.Headings.CJK), BW: cleanSearchText(body.Words), BC: cleanSearchText(body.CJK)}, true, nil
}

// insertPostings writes the postings of files whose rank_docs rows are
// written, in one statement sorted by word: consecutive rows then land
// in the same pages of the primary key, which cost a quarter less than a
// statement per file landing all over it (measured against a 2.8 million
// row index).
func (tx *Store) insertPostings(ps []postings) error {
	if len(ps) == 0 {
		return nil
	}
	js, err := json.Marshal(ps)
	if err != nil {
		return err
	}
	// A tsvector's positions carry the weight class of the column
	// they came from; tf adds each occurrence's column weight.
	return tx.db.Exec(fmt.Sprintf(`INSERT INTO rank_terms (term, user_id, node_id, tf)
SELECT u.lexeme, r.user_id, r.node_id,
(SELECT SUM(CASE w WHEN 'A' THEN %d WHEN 'B' THEN %d WHEN 'C' THEN %d ELSE %d END) FROM unnest(u.weights) w)
FROM jsonb_to_recordset(?::jsonb) AS d(node_id bigint, nw text, nc text, tw text, tc text, hw text, hc text, bw text, bc text)
JOIN rank_docs r ON r.node_id = d.node_id
CROSS JOIN LATERAL unnest(
setweight(to_tsvector('english', d.nw), 'A') || setweight(to_tsvector('simple', d.nc), 'A') ||
setweight(to_tsvector('english', d.tw), 'B') || setweight(to_tsvector('simple', d.tc), 'B') ||
setweight(to_tsvector('english', d.hw), 'C') || setweight(to_tsvector('simple', d.hc), 'C') ||
setweight(to_tsvector('english', d.bw), 'D') || setweight(to_tsvector('simple', d.bc), 'D')) u
ORDER BY u.lexeme, r.node_id`, rankWeightName, rankWeightTitle, rankWeightHeadings, rankWeightBody), string(js)).Error
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
	args := []any{strings.Join(f.Words, " "), strings.Join(f.Bigrams, " "), f.Root.UserID, f.Root.UserID}
	args = append(append(args, rootArgs...), KindFile, f.Limit)
	var out []RankedNode
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// A bitmap scan would visit a heap page per posting; the index
		// holds all the query needs.
		if err := tx.Exec("SET LOCAL enable_bitmapscan = off").Error; err != nil {
			return err
		}
		return tx.Raw(fmt.Sprintf(`WITH q AS MATERIALIZED (
	SELECT DISTINCT lexeme AS term FROM unnest(to_tsvector('english', ?) || to_tsvector('simple', ?))
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
