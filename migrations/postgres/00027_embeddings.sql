-- +goose Up
-- Meaning search. embed_docs says which version of a file's text body is
-- embedded under which model (model is the vector space: id, upstream
-- name and dimensions); a file waits for embedding while its indexed
-- version has no row of the current model. failed holds why a model
-- refused a file for good, so it is not asked again for that version.
-- embed_chunks holds the vectors of a file's chunks (unit length) and
-- where each chunk lies in the body, for its passage. The vectors are
-- plain arrays, so a server without pgvector still migrates; with an
-- embedding model configured the server creates the extension and an
-- HNSW index per dimension count over vec::vector(dims). user_id is the
-- file's owner (a file never changes owner): the HNSW scan filters by it,
-- so other users' chunks never crowd a user's shortlist.
CREATE TABLE embed_docs (
    node_id    BIGINT NOT NULL REFERENCES search_docs(node_id) ON DELETE CASCADE,
    model      TEXT   NOT NULL,
    version_id BIGINT NOT NULL,
    failed     TEXT   NOT NULL DEFAULT '',
    PRIMARY KEY (node_id, model)
);
CREATE INDEX embed_docs_model ON embed_docs(model);
CREATE TABLE embed_chunks (
    id         BIGSERIAL PRIMARY KEY,
    node_id    BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    model      TEXT    NOT NULL,
    start_byte INTEGER NOT NULL,
    end_byte   INTEGER NOT NULL,
    line       INTEGER NOT NULL,
    dims       INTEGER NOT NULL,
    vec        REAL[]  NOT NULL,
    FOREIGN KEY (node_id, model) REFERENCES embed_docs(node_id, model) ON DELETE CASCADE
);
CREATE INDEX embed_chunks_doc ON embed_chunks(node_id, model);

-- +goose Down
DROP TABLE embed_chunks;
DROP TABLE embed_docs;
