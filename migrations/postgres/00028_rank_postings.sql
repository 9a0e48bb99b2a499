-- +goose Up
-- Ranked search on PostgreSQL scores BM25 itself, as FTS5 does on SQLite,
-- from postings: one row per word (a lexeme of the english configuration,
-- or a CJK bigram of the simple one) per file, tf its occurrences weighted
-- by column (name 10, title 6, headings 3, body 1). ts_rank, which this
-- replaces, knows no idf and reads each matching file's whole tsvector
-- from TOAST: a question of common words read thousands of them. A query
-- now reads the postings of its own words only, from the primary key,
-- which covers tf: an index-only scan once autovacuum has passed. rank_docs keeps each file's body length in words and its owner,
-- for BM25's length normalization and collection statistics, which are
-- the owner's files. The index version changes with this migration, so a
-- server rebuilds the word index at start.
DROP TABLE rank_docs;
CREATE TABLE rank_docs (
    node_id BIGINT  PRIMARY KEY REFERENCES search_docs(node_id) ON DELETE CASCADE,
    user_id BIGINT  NOT NULL,
    len     INTEGER NOT NULL
);
CREATE INDEX rank_docs_user ON rank_docs(user_id) INCLUDE (len);
CREATE TABLE rank_terms (
    term    TEXT   NOT NULL,
    user_id BIGINT NOT NULL,
    node_id BIGINT NOT NULL REFERENCES rank_docs(node_id) ON DELETE CASCADE,
    tf      REAL   NOT NULL,
    PRIMARY KEY (term, user_id, node_id) INCLUDE (tf)
);
CREATE INDEX rank_terms_node ON rank_terms(node_id);

-- +goose Down
DROP TABLE rank_terms;
DROP TABLE rank_docs;
CREATE TABLE rank_docs (
    node_id BIGINT PRIMARY KEY REFERENCES search_docs(node_id) ON DELETE CASCADE,
    doc     TSVECTOR NOT NULL,
    len     INTEGER  NOT NULL
);
CREATE INDEX rank_docs_doc ON rank_docs USING gin (doc);
