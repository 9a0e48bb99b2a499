-- +goose Up
CREATE TABLE users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    role          TEXT    NOT NULL CHECK (role IN ('admin', 'user')),
    disabled      BOOLEAN NOT NULL DEFAULT FALSE,
    token_version INTEGER NOT NULL DEFAULT 0,
    created_at    DATETIME NOT NULL,
    updated_at    DATETIME NOT NULL
);

CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    prefix       TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL UNIQUE,
    created_at   DATETIME NOT NULL,
    last_used_at DATETIME
);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

-- path is the node's location below its owner's root ('' for the root,
-- 'notes/a.md' below it); parent_id keeps the tree walkable for listings.
CREATE TABLE nodes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    parent_id  INTEGER REFERENCES nodes(id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    path       TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('dir', 'file')),
    generated  BOOLEAN NOT NULL DEFAULT FALSE,
    size       INTEGER NOT NULL DEFAULT 0,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL,
    UNIQUE (user_id, path)
);
CREATE INDEX nodes_children ON nodes(parent_id, kind, name);

-- One row per stored body of a file: 'raw' for uploads, 'l2' for parsed text.
-- The bytes live in the blob store under blob_hash.
CREATE TABLE file_versions (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    node_id    INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    body       TEXT    NOT NULL CHECK (body IN ('raw', 'l2')),
    version    INTEGER NOT NULL,
    blob_hash  TEXT    NOT NULL,
    size       INTEGER NOT NULL,
    is_text    BOOLEAN NOT NULL,
    char_count INTEGER NOT NULL DEFAULT 0,
    media_type TEXT    NOT NULL DEFAULT '',
    created_at DATETIME NOT NULL,
    UNIQUE (node_id, body, version)
);
CREATE INDEX file_versions_blob ON file_versions(blob_hash);

-- +goose Down
DROP TABLE file_versions;
DROP TABLE nodes;
DROP TABLE api_tokens;
DROP TABLE users;
