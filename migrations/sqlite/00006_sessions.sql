-- +goose Up
-- A session is a row the JWT names by id, so one session can be ended
-- (logout) while the others live on, and its idle expiry can slide with use
-- without issuing a new token. expires_at never passes max_expires_at.
CREATE TABLE sessions (
    id             TEXT     PRIMARY KEY,
    user_id        INTEGER  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at     DATETIME NOT NULL,
    last_seen_at   DATETIME NOT NULL,
    expires_at     DATETIME NOT NULL,
    max_expires_at DATETIME NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- The claim query serves users round-robin by their latest start.
CREATE INDEX jobs_user_started ON jobs(user_id, started_at);

ALTER TABLE api_tokens ADD COLUMN expires_at DATETIME;

-- +goose Down
DROP INDEX jobs_user_started;
ALTER TABLE api_tokens DROP COLUMN expires_at;
DROP TABLE sessions;
