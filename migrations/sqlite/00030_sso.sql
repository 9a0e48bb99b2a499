-- +goose Up
-- An account signed in through an identity provider is found again by the
-- provider's subject, never by a name or an address that can be reused.
CREATE TABLE external_identities (
    id            INTEGER  PRIMARY KEY AUTOINCREMENT,
    provider      TEXT     NOT NULL,
    subject       TEXT     NOT NULL,
    user_id       INTEGER  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email         TEXT     NOT NULL DEFAULT '',
    created_at    DATETIME NOT NULL,
    last_login_at DATETIME NOT NULL
);
CREATE UNIQUE INDEX external_identities_subject ON external_identities(provider, subject);
CREATE INDEX external_identities_user ON external_identities(user_id);

-- The address an operator pre-creates an account with, so its owner's
-- first single sign-on finds it (only when the provider allows linking).
ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';

-- A session opened by a provider keeps its ID token for the provider's
-- logout (id_token_hint), and a one-time hand-off the browser redeems for
-- the session's token once the provider has sent it back.
ALTER TABLE sessions ADD COLUMN provider TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN id_token TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN handoff_hash TEXT;
ALTER TABLE sessions ADD COLUMN handoff_expires_at DATETIME;
CREATE UNIQUE INDEX sessions_handoff ON sessions(handoff_hash);

-- +goose Down
DROP INDEX sessions_handoff;
ALTER TABLE sessions DROP COLUMN handoff_expires_at;
ALTER TABLE sessions DROP COLUMN handoff_hash;
ALTER TABLE sessions DROP COLUMN id_token;
ALTER TABLE sessions DROP COLUMN provider;
ALTER TABLE users DROP COLUMN email;
DROP TABLE external_identities;
