-- +goose Up
CREATE TABLE users (
    id            BIGSERIAL PRIMARY KEY,
    username      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    role          TEXT    NOT NULL CHECK (role IN ('admin', 'user')),
    disabled      BOOLEAN NOT NULL DEFAULT FALSE,
    token_version INTEGER NOT NULL DEFAULT 0,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE api_tokens (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT   NOT NULL,
    prefix       TEXT   NOT NULL,
    token_hash   TEXT   NOT NULL UNIQUE,
    created_at   TIMESTAMPTZ NOT NULL,
    last_used_at TIMESTAMPTZ
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

-- path is the node's location below its owner's root ('' for the root,
-- 'notes/a.md' below it); parent_id keeps the tree walkable for listings.
-- COLLATE "C" keeps ordering byte-wise, the same as SQLite.
CREATE TABLE nodes (
    id         BIGSERIAL PRIMARY KEY,
    user_id    BIGINT  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    parent_id  BIGINT  REFERENCES nodes(id) ON DELETE CASCADE,
    name       TEXT    COLLATE "C" NOT NULL,
    path       TEXT    COLLATE "C" NOT NULL,
    kind       TEXT    COLLATE "C" NOT NULL CHECK (kind IN ('dir', 'file')),
    generated  BOOLEAN NOT NULL DEFAULT FALSE,
    size       BIGINT  NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    UNIQUE (user_id, path)
);
CREATE INDEX nodes_children ON nodes(parent_id, kind, name);

-- One row per stored body of a file: 'raw' for uploads, 'l2' for parsed text.
-- The bytes live in the blob store under blob_hash.
CREATE TABLE file_versions (
    id         BIGSERIAL PRIMARY KEY,
    node_id    BIGINT  NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    body       TEXT    NOT NULL CHECK (body IN ('raw', 'l2')),
    version    INTEGER NOT NULL,
    blob_hash  TEXT    NOT NULL,
    size       BIGINT  NOT NULL,
    is_text    BOOLEAN NOT NULL,
    char_count BIGINT  NOT NULL DEFAULT 0,
    media_type TEXT    NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (node_id, body, version)
);
CREATE INDEX file_versions_blob ON file_versions(blob_hash);

-- +goose Down
DROP TABLE file_versions;
DROP TABLE nodes;
DROP TABLE api_tokens;
DROP TABLE users;
