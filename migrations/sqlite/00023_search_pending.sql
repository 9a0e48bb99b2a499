-- +goose Up
-- The index is written after the write that changed a file has committed,
-- outside its transaction: search_docs.pending marks a body waiting for
-- the index writer (indexed is false meanwhile, so every search reads it
-- in full). A body is indexed in chunks, each its own row of search_fts
-- and its own short transaction, so a large file never holds SQLite's
-- write lock for long; search_chunks says which file each row belongs to.
-- The rows of search_fts were keyed by file until now: the index version
-- changes with this migration, so the server rebuilds it at start.
ALTER TABLE search_docs ADD COLUMN pending BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX search_docs_pending ON search_docs(node_id) WHERE pending;
CREATE TABLE search_chunks (
    id      INTEGER PRIMARY KEY,
    node_id INTEGER NOT NULL REFERENCES search_docs(node_id) ON DELETE CASCADE
);
CREATE INDEX search_chunks_node ON search_chunks(node_id);
DROP TRIGGER search_docs_gone;
-- +goose StatementBegin
CREATE TRIGGER search_chunks_gone AFTER DELETE ON search_chunks BEGIN
    DELETE FROM search_fts WHERE rowid = old.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER search_chunks_gone;
-- +goose StatementBegin
CREATE TRIGGER search_docs_gone AFTER DELETE ON search_docs BEGIN
    DELETE FROM search_fts WHERE rowid = old.node_id;
END;
-- +goose StatementEnd
DROP TABLE search_chunks;
DROP INDEX search_docs_pending;
ALTER TABLE search_docs DROP COLUMN pending;
