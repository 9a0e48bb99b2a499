package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"gorm.io/gorm"
)

// EmbedChunk is one embedded chunk of a file's text body: its bytes
// [Start, End), the line it starts on, and its unit-length vector.
type EmbedChunk struct {
	Start, End, Line int
	Vec              []float32
}

// PendingEmbeds returns up to limit files, after node id after, whose
// indexed text body has no embedding under model: new files, changed
// files, and every file once the model changes.
func (s *Store) PendingEmbeds(ctx context.Context, model string, after int64, limit int) ([]SearchDoc, error) {
	var ds []SearchDoc
	err := s.db.WithContext(ctx).Table("search_docs d").Select("d.*").
		Joins("LEFT JOIN embed_docs e ON e.node_id = d.node_id AND e.model = ? AND e.version_id = d.version_id", model).
		Where("d.indexed AND NOT d.pending AND e.node_id IS NULL AND d.node_id > ?", after).
		Order("d.node_id").Limit(limit).Find(&ds).Error
	return ds, translate(err)
}

// WriteEmbedding makes chunks the embedding under model of d's node, whose
// indexed body was version d.VersionID when read; failed, when not empty,
// records that the model refused the text for good instead. It reports
// false, writing nothing, when the body changed or went away since.
func (s *Store) WriteEmbedding(ctx context.Context, d SearchDoc, model string, chunks []EmbedChunk, failed string) (bool, error) {
	wrote := false
	err := s.InTx(ctx, func(tx *Store) error {
		var n int64
		if err := tx.db.Table("search_docs").Where("node_id = ? AND version_id = ? AND indexed AND NOT pending", d.NodeID, d.VersionID).Count(&n).Error; err != nil || n == 0 {
			return err
		}
		if err := tx.db.Exec(`DELETE FROM embed_docs WHERE node_id = ? AND model = ?`, d.NodeID, model).Error; err != nil {
			return err
		}
		if err := tx.db.Exec(`INSERT INTO embed_docs (node_id, model, version_id, failed) VALUES (?, ?, ?, ?)`, d.NodeID, model, d.VersionID, failed).Error; err != nil {
			return err
		}
		if err := tx.insertChunks(d.NodeID, model, chunks); err != nil {
			return err
		}
		wrote = true
		return nil
	})
	return wrote, translate(err)
}

// chunkBatch bounds the rows of one SQLite INSERT (8 values a row, under
// SQLite's 32,766 host parameters with room to spare).
const chunkBatch = 500

// insertChunks writes a file's chunks in as few statements as it can: one
// per file on PostgreSQL, whose round trips and per-statement overhead
// dominated writing row by row; batches of chunkBatch rows on SQLite.
func (s *Store) insertChunks(nodeID int64, model string, chunks []EmbedChunk) error {
	if len(chunks) == 0 {
		return nil
	}
	if s.dialect == DialectPostgres {
		dims := len(chunks[0].Vec)
		starts, ends, lines := make([]string, len(chunks)), make([]string, len(chunks)), make([]string, len(chunks))
		vecs := make([]string, len(chunks))
		for i, c := range chunks {
			if len(c.Vec) != dims {
				return fmt.Errorf("embedding of node %d: chunk %d has %d dimensions, chunk 0 has %d", nodeID, i, len(c.Vec), dims)
			}
			starts[i], ends[i], lines[i] = strconv.Itoa(c.Start), strconv.Itoa(c.End), strconv.Itoa(c.Line)
			vecs[i] = floats(c.Vec)
		}
		// The vectors travel as one flat array, cut back into rows by
		// position: a slice of a real[] is a real[].
		return s.db.Exec(`INSERT INTO embed_chunks (node_id, user_id, model, start_byte, end_byte, line, dims, vec)
SELECT n.id, n.user_id, ?, a.s[i], a.e[i], a.l[i], ?, a.v[(i - 1) * ? + 1 : i * ?]
FROM nodes n, (SELECT ?::int[] AS s, ?::int[] AS e, ?::int[] AS l, ?::real[] AS v) a, generate_series(1, cardinality(a.s)) i
WHERE n.id = ?`,
			model, dims, dims, dims, "{"+strings.Join(starts, ",")+"}", "{"+strings.Join(ends, ",")+"}",
			"{"+strings.Join(lines, ",")+"}", "{"+strings.Join(vecs, ",")+"}", nodeID).Error
	}
	for len(chunks) > 0 {
		batch := chunks[:min(len(chunks), chunkBatch)]
		chunks = chunks[len(batch):]
		rows := make([]string, len(batch))
		args := make([]any, 0, 8*len(batch))
		for i, c := range batch {
			rows[i] = "(?, ?, ?, ?, ?, ?, ?, ?)"
			args = append(args, nodeID, model, c.Start, c.End, c.Line, len(c.Vec), encodeVec(c.Vec), signBits(c.Vec))
		}
		if err := s.db.Exec(`INSERT INTO embed_chunks (node_id, model, start_byte, end_byte, line, dims, vec, bits) VALUES `+
			strings.Join(rows, ", "), args...).Error; err != nil {
			return err
		}
	}
	return nil
}

// DropOtherEmbeddings deletes up to limit files' embeddings under models
// other than model, and tells how many it deleted: once the model
// changed, the old vectors are never read again.
func (s *Store) DropOtherEmbeddings(ctx context.Context, model string, limit int) (int64, error) {
	res := s.db.WithContext(ctx).Exec(`DELETE FROM embed_docs WHERE (node_id, model) IN
(SELECT node_id, model FROM embed_docs WHERE model <> ? LIMIT ?)`, model, limit)
	return res.RowsAffected, translate(res.Error)
}

// CountUnembedded counts the files below root whose indexed text has no
// embedding under model yet; a meaning answer is not complete while there
// are any.
func (s *Store) CountUnembedded(ctx context.Context, root SearchRoot, model string) (int64, error) {
	var n int64
	err := root.under(s.db.WithContext(ctx).Table("nodes n").
		Joins("JOIN search_docs d ON d.node_id = n.id").
		Joins("LEFT JOIN embed_docs e ON e.node_id = d.node_id AND e.model = ? AND e.version_id = d.version_id", model)).
		Where("n.kind = ? AND d.indexed AND NOT d.pending AND e.node_id IS NULL", KindFile).Count(&n).Error
	return n, translate(err)
}

// FindNearest asks for the chunks below Root nearest to Vec under Model.
type FindNearest struct {
	Root  SearchRoot
	Model string
	Vec   []float32
	Limit int
}

// NearChunk is a chunk of a meaning answer: its file, where it lies in the
// file's body, and its cosine similarity to the query (1 is the same
// direction).
type NearChunk struct {
	Node
	Start, End, Line int
	Similarity       float64
}

// NearestChunks returns up to f.Limit chunks of f, nearest first. The root
// is part of the query, and so is the file's current version: a chunk of
// another user's file, of a file outside the scope, or of a body that has
// changed since it was embedded is never scored.
func (s *Store) NearestChunks(ctx context.Context, f FindNearest) ([]NearChunk, error) {
	if len(f.Vec) == 0 {
		return nil, nil
	}
	if s.dialect == DialectPostgres {
		return s.nearestPG(ctx, f)
	}
	return s.nearestSQLite(ctx, f)
}

// shortlistFactor: the SQLite query scores exactly this many times Limit
// chunks, those whose sign bits differ least from the question's. Reading
// the shortlist's vectors is most of a query's time; four times the
// chunks asked for kept the known-answer figures of ten times
// (docs/BENCHMARKS.md).
const shortlistFactor = 4

// nearestSQLite ranks the root's chunks by the Hamming distance of their
// sign bits (read from the covering index embed_chunks_doc, without the
// vectors), then scores the shortlist by the cosine of their vectors.
func (s *Store) nearestSQLite(ctx context.Context, f FindNearest) ([]NearChunk, error) {
	dims := len(f.Vec)
	var short []struct{ ID int64 }
	q := s.db.WithContext(ctx).Table("nodes n").
		// The bits go in as a hex literal: they are ours, and a bound BLOB
		// in a select list is taken for a list of values.
		Select("c.id AS id, vec_distance_hamming(vec_bit(c.bits), vec_bit(X'"+hex.EncodeToString(signBits(f.Vec))+"')) AS apart").
		Joins("JOIN search_docs d ON d.node_id = n.id AND d.indexed AND NOT d.pending").
		Joins("JOIN embed_docs e ON e.node_id = n.id AND e.model = ? AND e.version_id = d.version_id", f.Model).
		Joins("JOIN embed_chunks c INDEXED BY embed_chunks_doc ON c.node_id = n.id AND c.model = e.model").
		Where("n.kind = ? AND length(c.bits) = ?", KindFile, (dims+7)/8)
	err := f.Root.under(q).Order("apart").Limit(shortlistFactor * f.Limit).Find(&short).Error
	if err != nil || len(short) == 0 {
		return nil, translate(err)
	}
	ids := make([]int64, len(short))
	for i, c := range short {
		ids[i] = c.ID
	}
	// The second statement checks again what the first did: a file
	// deleted, moved out or changed between the two is not answered.
	var out []NearChunk
	q = s.db.WithContext(ctx).Table("embed_chunks c").
		Select(`n.*, c.start_byte AS start, c.end_byte AS "end", c.line AS line, 1 - vec_distance_cosine(c.vec, ?) AS similarity`, encodeVec(f.Vec)).
		Joins("JOIN embed_docs e ON e.node_id = c.node_id AND e.model = c.model").
		Joins("JOIN search_docs d ON d.node_id = c.node_id AND d.version_id = e.version_id AND d.indexed AND NOT d.pending").
		Joins("JOIN nodes n ON n.id = c.node_id").
		Where("c.id IN ? AND c.dims = ?", ids, dims)
	err = f.Root.under(q).Order("similarity DESC").Limit(f.Limit).Find(&out).Error
	return out, translate(err)
}

// nearestPG asks the HNSW index of the vectors' dimension count for the
// owner's chunks nearest the question (shortlistFactor times Limit), then
// keeps those of the root's current files. When fewer than Limit remain
// and the root is narrower than the owner's tree, the shortlist may have
// missed some of the root's chunks: the root's chunks are then scored
// exactly, which costs what the root holds.
func (s *Store) nearestPG(ctx context.Context, f FindNearest) ([]NearChunk, error) {
	dims := len(f.Vec)
	// The dimension count and the vector's numbers are ours, not the
	// caller's, and are written into the query: the HNSW index of that
	// count answers an ORDER BY of the distance to a constant.
	dist := fmt.Sprintf("(c.vec::public.vector(%d) OPERATOR(public.<=>) '[%s]'::public.vector(%d))", dims, floats(f.Vec), dims)
	current := func(q *gorm.DB, chunks string) *gorm.DB {
		q = q.Joins("JOIN embed_docs e ON e.node_id = "+chunks+".node_id AND e.model = ?", f.Model).
			Joins("JOIN search_docs d ON d.node_id = " + chunks + ".node_id AND d.version_id = e.version_id AND d.indexed AND NOT d.pending").
			Joins("JOIN nodes n ON n.id = " + chunks + ".node_id")
		return f.Root.under(q).Where("n.kind = ?", KindFile)
	}
	var out []NearChunk
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("SET LOCAL hnsw.iterative_scan = relaxed_order").Error; err != nil {
			return err
		}
		if err := tx.Exec("SET LOCAL hnsw.ef_search = 200").Error; err != nil {
			return err
		}
		short := tx.Table("embed_chunks c").Select("c.node_id, c.start_byte, c.end_byte, c.line, "+dist+" AS dist").
			Where("c.user_id = ? AND c.model = ? AND c.dims = "+strconv.Itoa(dims), f.Root.UserID, f.Model).
			Order(dist).Limit(shortlistFactor * f.Limit)
		q := current(tx.Table("(?) s", short), "s").
			Select(`n.*, s.start_byte AS start, s.end_byte AS "end", s.line AS line, 1 - s.dist AS similarity`)
		if err := q.Order("s.dist").Limit(f.Limit).Find(&out).Error; err != nil {
			return err
		}
		if len(out) == f.Limit || (f.Root.Dir && f.Root.Path == "") {
			return nil
		}
		out = out[:0]
		return current(tx.Table("embed_chunks c"), "c").
			Select(`n.*, c.start_byte AS start, c.end_byte AS "end", c.line AS line, 1 - `+dist+` AS similarity`).
			Where("c.model = ? AND c.dims = "+strconv.Itoa(dims), f.Model).
			Order(dist).Limit(f.Limit).Find(&out).Error
	})
	return out, translate(err)
}

// EnsureVectorIndex readies PostgreSQL for vectors of dims dimensions:
// the pgvector extension and an HNSW index over them. SQLite needs
// nothing (sqlite-vec is linked in).
func (s *Store) EnsureVectorIndex(ctx context.Context, dims int) error {
	if s.dialect != DialectPostgres {
		return nil
	}
	// In public whatever the search_path, as pg_trgm: the queries name it so.
	if err := s.db.WithContext(ctx).Exec("CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public").Error; err != nil {
		return fmt.Errorf("meaning search on PostgreSQL needs the pgvector extension (https://github.com/pgvector/pgvector; the pgvector/pgvector images have it): %w", translate(err))
	}
	return translate(s.db.WithContext(ctx).Exec(fmt.Sprintf(
		"CREATE INDEX IF NOT EXISTS embed_chunks_hnsw_%d ON embed_chunks USING hnsw ((vec::public.vector(%d)) public.vector_cosine_ops) WHERE dims = %d",
		dims, dims, dims)).Error)
}

func floats(v []float32) string {
	var b strings.Builder
	b.Grow(12 * len(v))
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	return b.String()
}

// CountEmbedChunks counts every stored vector, of every model.
func (s *Store) CountEmbedChunks(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Table("embed_chunks").Count(&n).Error
	return n, translate(err)
}

// EmbedStats is meaning search's progress under one model, over every
// user: files embedded, files waiting for their vectors, files the model
// refused, and the vectors stored.
type EmbedStats struct {
	Files, Waiting, Failed, Chunks int64
}

// EmbedProgress counts EmbedStats under model.
func (s *Store) EmbedProgress(ctx context.Context, model string) (EmbedStats, error) {
	var st EmbedStats
	db := s.db.WithContext(ctx)
	err := db.Raw(`SELECT
 (SELECT COUNT(*) FROM embed_docs WHERE model = ? AND failed = ''),
 (SELECT COUNT(*) FROM embed_docs WHERE model = ? AND failed <> ''),
 (SELECT COUNT(*) FROM embed_chunks WHERE model = ?),
 (SELECT COUNT(*) FROM search_docs d LEFT JOIN embed_docs e ON e.node_id = d.node_id AND e.model = ? AND e.version_id = d.version_id
  WHERE d.indexed AND NOT d.pending AND e.node_id IS NULL)`, model, model, model, model).
		Row().Scan(&st.Files, &st.Failed, &st.Chunks, &st.Waiting)
	return st, translate(err)
}

// EmbedBytes is the space meaning search's vectors take: on PostgreSQL
// both tables with TOAST and indexes (the HNSW graphs included); on SQLite
// the rows' payload and the covering index of sign bits, without page
// slack (Backup's compact copy, with and without them, measures that).
func (s *Store) EmbedBytes(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	q := `SELECT pg_total_relation_size('embed_chunks') + pg_total_relation_size('embed_docs')`
	if s.dialect != DialectPostgres {
		q = `SELECT (SELECT COALESCE(SUM(LENGTH(vec) + 2 * LENGTH(bits) + LENGTH(model) * 2 + 48), 0) FROM embed_chunks) +
  (SELECT COALESCE(SUM(LENGTH(model) + LENGTH(failed) + 24), 0) FROM embed_docs)`
	}
	err := s.db.WithContext(ctx).Raw(q).Row().Scan(&n)
	return n.Int64, translate(err)
}
