-- +goose Up
-- A turn or job admitted under a budget holds an estimate of what it will
-- spend until it ends; admissions on every replica count the live holds, so
-- racing replicas cannot each admit against the same unspent rest. Once
-- settled a hold keeps what the work really spent: the next estimates are
-- the mean of those. crossing marks the one admission that may run past
-- the limit; at most one is live per budget.
CREATE TABLE budget_holds (
    id         INTEGER  PRIMARY KEY AUTOINCREMENT,
    budget_id  INTEGER  NOT NULL,
    tokens     INTEGER  NOT NULL,
    cost       REAL     NOT NULL,
    crossing   BOOLEAN  NOT NULL DEFAULT FALSE,
    settled    BOOLEAN  NOT NULL DEFAULT FALSE,
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL
);
CREATE INDEX budget_holds_budget ON budget_holds(budget_id, settled, id);

-- Embedding models are added in the admin screens too: their dimensions
-- and batch size (0: the defaults). Which embedding model is in use is
-- kept with the change counter, so choosing one reaches every replica as
-- any change of the models does; '' is the config file's first.
ALTER TABLE admin_models ADD COLUMN dimensions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE admin_models ADD COLUMN batch_size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE admin_models_version ADD COLUMN embedding_in_use TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE admin_models_version DROP COLUMN embedding_in_use;
ALTER TABLE admin_models DROP COLUMN batch_size;
ALTER TABLE admin_models DROP COLUMN dimensions;
DROP TABLE budget_holds;
