-- +goose Up
-- A folder kept compiled: the compile request's choices saved on it, and
-- its pending change. A write below the folder sets changed_at and due_at
-- (changed_at + quiet_s) in the write's own transaction, so a restart or
-- another replica loses nothing; a scheduler claims a due row with a lease
-- (claim_owner, claim_until), queues the jobs and clears due_at only if
-- change_seq did not move meanwhile.
CREATE TABLE auto_compiles (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    node_id      BIGINT  NOT NULL UNIQUE REFERENCES nodes(id) ON DELETE CASCADE,
    request_json TEXT    NOT NULL,
    quiet_s      INTEGER NOT NULL DEFAULT 30,
    dirty_since  TIMESTAMPTZ,
    changed_at   TIMESTAMPTZ,
    due_at       TIMESTAMPTZ,
    change_seq   BIGINT  NOT NULL DEFAULT 0,
    claim_owner  TEXT    NOT NULL DEFAULT '',
    claim_until  TIMESTAMPTZ,
    last_error   TEXT    NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX auto_compiles_user ON auto_compiles(user_id);
CREATE INDEX auto_compiles_due ON auto_compiles(due_at);

-- +goose Down
DROP TABLE auto_compiles;
