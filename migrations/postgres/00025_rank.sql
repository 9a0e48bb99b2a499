-- +goose Up
-- The word index of ranked search, beside the trigram index: one row per
-- file. doc weighs the columns apart (A name, B title, C headings, D
-- body): English words through the english configuration (stemmed),
-- Chinese and Japanese runs as overlapping bigrams, pre-segmented by the
-- server, through the simple one. len is the body's length in words, for
-- length normalization.
CREATE TABLE rank_docs (
    node_id BIGINT PRIMARY KEY REFERENCES search_docs(node_id) ON DELETE CASCADE,
    doc     TSVECTOR NOT NULL,
    len     INTEGER  NOT NULL
);
CREATE INDEX rank_docs_doc ON rank_docs USING gin (doc);

-- +goose Down
DROP TABLE rank_docs;
