-- +goose Up
-- The content index. search_docs holds, for each file, the text body the
-- index covers (version_id, a file_versions row) with a trigram GIN index;
-- indexed is false (and body empty) for a body too large to index, which
-- every search then reads as a candidate. The exact matcher confirms every
-- candidate against the blob, so the index only has to propose a superset.
-- body is the text case-folded by the server (the exact matcher's folding;
-- PostgreSQL's lower() differs on letters such as the final sigma),
-- searched with LIKE.
-- pg_trgm lives in public whatever the search_path, so that servers (and
-- tests) using another schema share one installation.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE TABLE search_docs (
    node_id    BIGINT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    version_id BIGINT  NOT NULL,
    indexed    BOOLEAN NOT NULL,
    body       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX search_docs_trgm ON search_docs USING gin (body public.gin_trgm_ops);
CREATE INDEX search_docs_unindexed ON search_docs(node_id) WHERE NOT indexed;
CREATE TABLE search_meta (
    k TEXT PRIMARY KEY,
    v TEXT NOT NULL
);

-- +goose Down
DROP TABLE search_meta;
DROP TABLE search_docs;
