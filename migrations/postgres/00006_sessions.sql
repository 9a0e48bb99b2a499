-- +goose Up
-- A session is a row the JWT names by id, so one session can be ended
-- (logout) while the others live on, and its idle expiry can slide with use
-- without issuing a new token. expires_at never passes max_expires_at.
CREATE TABLE sessions (
    id             TEXT        PRIMARY KEY,
    user_id        BIGINT      NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at     TIMESTAMPTZ NOT NULL,
    last_seen_at   TIMESTAMPTZ NOT NULL,
    expires_at     TIMESTAMPTZ NOT NULL,
    max_expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- The claim query serves users round-robin by their latest start.
CREATE INDEX jobs_user_started ON jobs(user_id, started_at);

ALTER TABLE api_tokens ADD COLUMN expires_at TIMESTAMPTZ;

-- +goose Down
DROP INDEX jobs_user_started;
ALTER TABLE api_tokens DROP COLUMN expires_at;
DROP TABLE sessions;
