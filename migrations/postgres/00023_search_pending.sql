-- +goose Up
-- The index is written after the write that changed a file has committed,
-- outside its transaction: pending marks a body waiting for the index
-- writer (indexed is false meanwhile, so every search reads it in full).
ALTER TABLE search_docs ADD COLUMN pending BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX search_docs_pending ON search_docs(node_id) WHERE pending;

-- +goose Down
DROP INDEX search_docs_pending;
ALTER TABLE search_docs DROP COLUMN pending;
