-- +goose Up
-- Model usage rolled up by day (UTC), user, model, purpose and whether the
-- counts are the provider's or our estimate: one row grows with each call,
-- so budgets and reports read a few rows, not every call.
CREATE TABLE usage_days (
    day           TEXT    NOT NULL,
    user_id       BIGINT  NOT NULL,
    model         TEXT    NOT NULL,
    purpose       TEXT    NOT NULL,
    estimated     BOOLEAN NOT NULL,
    calls         BIGINT  NOT NULL DEFAULT 0,
    input_tokens  BIGINT  NOT NULL DEFAULT 0,
    output_tokens BIGINT  NOT NULL DEFAULT 0,
    cost          DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (day, user_id, model, purpose, estimated)
);
CREATE INDEX usage_days_user ON usage_days(user_id, day);

-- +goose Down
DROP TABLE usage_days;
