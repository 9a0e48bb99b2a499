-- +goose Up
-- A limit on model usage per day or month (UTC): for everyone together
-- (global, subject 0), for one user, or for one group's members together.
-- 0 means no limit of that kind.
CREATE TABLE budgets (
    id         INTEGER  PRIMARY KEY AUTOINCREMENT,
    scope      TEXT     NOT NULL,
    subject_id INTEGER  NOT NULL DEFAULT 0,
    period     TEXT     NOT NULL,
    max_tokens INTEGER  NOT NULL DEFAULT 0,
    max_cost   REAL     NOT NULL DEFAULT 0,
    created_at DATETIME NOT NULL,
    updated_at DATETIME NOT NULL
);
CREATE UNIQUE INDEX budgets_subject ON budgets(scope, subject_id, period);

-- +goose Down
DROP TABLE budgets;
