-- +goose Up
-- The content index. search_docs says which text body of each file the index
-- holds (version_id, a file_versions row); indexed is false for a body too
-- large to index, which every search then reads as a candidate. The trigram
-- table is contentless (the text stays in the blob store) with detail=none
-- (only which rows hold each trigram): the exact matcher confirms every
-- candidate, so positions would only make the index larger. The text comes
-- case-folded by the server (its own folding, the exact matcher's), hence
-- case_sensitive 1: SQLite's folding differs on a few letters.
CREATE TABLE search_docs (
    node_id    INTEGER PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    version_id INTEGER NOT NULL,
    indexed    BOOLEAN NOT NULL
);
CREATE INDEX search_docs_unindexed ON search_docs(node_id) WHERE NOT indexed;
CREATE VIRTUAL TABLE search_fts USING fts5(body, content='', contentless_delete=1, tokenize='trigram case_sensitive 1', detail=none);
-- A file deleted with its folder cascades to search_docs; the trigger takes
-- its trigrams with it.
-- +goose StatementBegin
CREATE TRIGGER search_docs_gone AFTER DELETE ON search_docs BEGIN
    DELETE FROM search_fts WHERE rowid = old.node_id;
END;
-- +goose StatementEnd
CREATE TABLE search_meta (
    k TEXT PRIMARY KEY,
    v TEXT NOT NULL
);

-- +goose Down
DROP TABLE search_meta;
DROP TRIGGER search_docs_gone;
DROP TABLE search_fts;
DROP TABLE search_docs;
