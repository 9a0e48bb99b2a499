-- +goose Up
-- A deleted node and its subtree wait here until restored, purged or
-- expired. payload_json holds the nodes and every version of their bodies,
-- enough to put them back; trash_blobs names the bytes they need, so the
-- blob collection keeps them (it frees only what no version and no trash
-- item references).
CREATE TABLE trash_items (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    path         TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('dir', 'file')),
    size         INTEGER NOT NULL DEFAULT 0,
    payload_json TEXT    NOT NULL,
    deleted_at   DATETIME NOT NULL
);
CREATE INDEX trash_items_user ON trash_items(user_id, deleted_at);
CREATE INDEX trash_items_expiry ON trash_items(deleted_at);

CREATE TABLE trash_blobs (
    item_id   INTEGER NOT NULL REFERENCES trash_items(id) ON DELETE CASCADE,
    blob_hash TEXT    NOT NULL,
    PRIMARY KEY (item_id, blob_hash)
);
CREATE INDEX trash_blobs_blob ON trash_blobs(blob_hash);

-- +goose Down
DROP TABLE trash_blobs;
DROP TABLE trash_items;
