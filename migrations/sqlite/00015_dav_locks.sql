-- +goose Up
-- WebDAV locks live here, not in one process, so every replica answers a
-- LOCK, a conditional PUT and an UNLOCK alike. root is the locked path in
-- the owner's tree ('' for the root); a lock may name a path that does
-- not exist yet (RFC 4918 §7.3). Expired rows are ignored and swept.
CREATE TABLE dav_locks (
    token      TEXT    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    root       TEXT    NOT NULL,
    zero_depth BOOLEAN NOT NULL DEFAULT FALSE,
    owner_xml  TEXT    NOT NULL DEFAULT '',
    duration_s INTEGER NOT NULL,
    expires_at DATETIME NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE INDEX dav_locks_user ON dav_locks(user_id, expires_at);

-- Dead properties a WebDAV client set with PROPPATCH; they follow the node
-- through moves and go with it when it is deleted.
CREATE TABLE dav_props (
    node_id   INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    ns        TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    lang      TEXT    NOT NULL DEFAULT '',
    inner_xml TEXT    NOT NULL,
    PRIMARY KEY (node_id, ns, name)
);

-- +goose Down
DROP TABLE dav_props;
DROP TABLE dav_locks;
