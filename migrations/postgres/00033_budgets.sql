-- +goose Up
-- A limit on model usage per day or month (UTC): for everyone together
-- (global, subject 0), for one user, or for one group's members together.
-- 0 means no limit of that kind.
CREATE TABLE budgets (
    id         BIGSERIAL PRIMARY KEY,
    scope      TEXT     NOT NULL,
    subject_id BIGINT   NOT NULL DEFAULT 0,
    period     TEXT     NOT NULL,
    max_tokens BIGINT   NOT NULL DEFAULT 0,
    max_cost   DOUBLE PRECISION NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX budgets_subject ON budgets(scope, subject_id, period);

-- +goose Down
DROP TABLE budgets;
