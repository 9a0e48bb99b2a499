-- +goose Up
-- Automatic extraction: a write that leaves a document (PDF, office file,
-- web page, image) without text parsed from its current upload marks it
-- here, inside its transaction; an extraction worker takes the row, parses
-- the upload with no model, stores the text (the same L2 body compile
-- makes) and removes the row. A failed extraction stays, with its reason,
-- so read and search can say why the file has no text. version_id is the
-- upload to parse: a newer upload marks the row again.
CREATE TABLE extractions (
    node_id          INTEGER PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    user_id          INTEGER NOT NULL,
    version_id       INTEGER NOT NULL,
    state            TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    error_code       TEXT NOT NULL DEFAULT '',
    error_message    TEXT NOT NULL DEFAULT '',
    lease_owner      TEXT NOT NULL DEFAULT '',
    lease_expires_at DATETIME,
    updated_at       DATETIME NOT NULL
);
CREATE INDEX extractions_waiting ON extractions(user_id, updated_at) WHERE state IN ('pending', 'running');

-- +goose Down
DROP TABLE extractions;
