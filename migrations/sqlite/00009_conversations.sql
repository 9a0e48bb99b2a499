-- +goose Up
-- A conversation belongs to the user who had it, whatever tree its scope is
-- in: a conversation in a folder shared with the caller is the caller's, and
-- the folder's owner never sees it. touched orders the history list (unix
-- microseconds: an integer compares the same in both dialects).
CREATE TABLE conversations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    uri        TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    model_id   TEXT    NOT NULL DEFAULT '',
    touched    INTEGER NOT NULL,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
);
CREATE INDEX conversations_user ON conversations(user_id, touched, id);
CREATE INDEX conversations_user_uri ON conversations(user_id, uri, touched, id);

-- One row per message version: slot is the message's place in the
-- conversation (user 0, assistant 1, user 2, ...), version counts the
-- answers (or edits) a slot has had, and is_current marks the one shown.
-- status 'streaming' is a turn in flight; a server start turns those left
-- over into failed/interrupted. tool_calls and usage hold JSON.
CREATE TABLE conversation_messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    slot            INTEGER NOT NULL,
    version         INTEGER NOT NULL,
    is_current      BOOLEAN NOT NULL,
    role            TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT    NOT NULL DEFAULT '',
    reasoning       TEXT    NOT NULL DEFAULT '',
    tool_calls      TEXT    NOT NULL DEFAULT '[]',
    status          TEXT    NOT NULL CHECK (status IN ('streaming', 'complete', 'stopped', 'failed')),
    error_code      TEXT    NOT NULL DEFAULT '',
    error_message   TEXT    NOT NULL DEFAULT '',
    usage           TEXT    NOT NULL DEFAULT '',
    estimate        INTEGER NOT NULL DEFAULT 0,
    model_id        TEXT    NOT NULL DEFAULT '',
    created_at      DATETIME NOT NULL,
    updated_at      DATETIME NOT NULL,
    UNIQUE (conversation_id, slot, version)
);
CREATE INDEX conversation_messages_conv ON conversation_messages(conversation_id, slot);
CREATE INDEX conversation_messages_streaming ON conversation_messages(status) WHERE status = 'streaming';

-- +goose Down
DROP TABLE conversation_messages;
DROP TABLE conversations;
