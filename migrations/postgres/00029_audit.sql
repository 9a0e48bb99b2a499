-- +goose Up
-- The audit log: one row per security-relevant action, written once and
-- never changed. No foreign keys: an event outlives the user, token or
-- file it names. before_json and after_json hold small settings (a
-- share's role, a user's flags), never a file's or a message's content.
CREATE TABLE audit_events (
    id          BIGSERIAL PRIMARY KEY,
    at          TIMESTAMPTZ NOT NULL,
    user_id     BIGINT,
    username    TEXT NOT NULL DEFAULT '',
    token_id    BIGINT,
    provider    TEXT NOT NULL DEFAULT '',
    action      TEXT NOT NULL,
    target      TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT '',
    before_json TEXT,
    after_json  TEXT,
    client_addr TEXT NOT NULL DEFAULT '',
    result      TEXT NOT NULL CHECK (result IN ('ok', 'refused', 'failed')),
    code        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_events_at ON audit_events(at);
CREATE INDEX audit_events_user ON audit_events(user_id, id);
CREATE INDEX audit_events_action ON audit_events(action, id);
-- Retention deletes old rows; nothing may rewrite one.
-- +goose StatementBegin
CREATE FUNCTION audit_events_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit events are append-only';
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd
CREATE TRIGGER audit_events_append_only BEFORE UPDATE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

-- +goose Down
DROP TRIGGER audit_events_append_only ON audit_events;
DROP FUNCTION audit_events_append_only();
DROP TABLE audit_events;
