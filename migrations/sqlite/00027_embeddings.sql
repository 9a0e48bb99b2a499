-- +goose Up
-- Meaning search. embed_docs says which version of a file's text body is
-- embedded under which model (model is the vector space: id, upstream
-- name and dimensions); a file waits for embedding while its indexed
-- version has no row of the current model. failed holds why a model
-- refused a file for good, so it is not asked again for that version.
-- embed_chunks holds the vectors of a file's chunks (little-endian
-- float32, unit length; scored by sqlite-vec) and where each chunk lies
-- in the body, for its passage. bits is the vector's signs, one bit a
-- dimension: a query first ranks a folder's chunks by the Hamming
-- distance of their bits, read from a covering index (a tenth of the
-- vectors' bytes), then scores the best of them exactly.
CREATE TABLE embed_docs (
    node_id    INTEGER NOT NULL REFERENCES search_docs(node_id) ON DELETE CASCADE,
    model      TEXT    NOT NULL,
    version_id INTEGER NOT NULL,
    failed     TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (node_id, model)
);
CREATE INDEX embed_docs_model ON embed_docs(model);
CREATE TABLE embed_chunks (
    id         INTEGER PRIMARY KEY,
    node_id    INTEGER NOT NULL,
    model      TEXT    NOT NULL,
    start_byte INTEGER NOT NULL,
    end_byte   INTEGER NOT NULL,
    line       INTEGER NOT NULL,
    dims       INTEGER NOT NULL,
    vec        BLOB    NOT NULL,
    bits       BLOB    NOT NULL,
    FOREIGN KEY (node_id, model) REFERENCES embed_docs(node_id, model) ON DELETE CASCADE
);
CREATE INDEX embed_chunks_doc ON embed_chunks(node_id, model, bits);

-- +goose Down
DROP TABLE embed_chunks;
DROP TABLE embed_docs;
