-- +goose Up
-- The job table is the compile queue (SPEC §2): workers claim a queued row
-- by setting a lease, renew it while working, and an expired lease puts the
-- row back. configuration_json is the frozen snapshot of the request's
-- effective configuration (NULL only for rows written before snapshots).
CREATE TABLE jobs (
    id                 BIGSERIAL PRIMARY KEY,
    user_id            BIGINT  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind               TEXT    NOT NULL,
    node_id            BIGINT  REFERENCES nodes(id) ON DELETE SET NULL,
    path               TEXT    COLLATE "C" NOT NULL,
    output_path        TEXT    COLLATE "C" NOT NULL DEFAULT '',
    state              TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    stage              TEXT    NOT NULL DEFAULT '',
    progress           DOUBLE PRECISION NOT NULL DEFAULT 0,
    attempts           INTEGER NOT NULL DEFAULT 0,
    max_attempts       INTEGER NOT NULL DEFAULT 3,
    configuration_json TEXT,
    config_hash        TEXT    NOT NULL DEFAULT '',
    fingerprint        TEXT    NOT NULL DEFAULT '',
    result_json        TEXT,
    error_code         TEXT    NOT NULL DEFAULT '',
    error_message      TEXT    NOT NULL DEFAULT '',
    cancel_requested   BOOLEAN NOT NULL DEFAULT FALSE,
    lease_owner        TEXT    NOT NULL DEFAULT '',
    lease_expires_at   TIMESTAMPTZ,
    run_after          TIMESTAMPTZ NOT NULL,
    started_at         TIMESTAMPTZ,
    finished_at        TIMESTAMPTZ,
    created_at         TIMESTAMPTZ NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX jobs_claim ON jobs(state, run_after, id);
CREATE INDEX jobs_lease ON jobs(state, lease_expires_at);
CREATE INDEX jobs_user ON jobs(user_id, updated_at);
CREATE INDEX jobs_user_path ON jobs(user_id, path);
-- At most one active job per source file: concurrent identical requests
-- cannot both enqueue.
CREATE UNIQUE INDEX jobs_one_active ON jobs(node_id) WHERE state IN ('queued', 'running');

-- Provenance of every generated file (summary, overview, abstract): what it
-- was made from and with what, so unchanged inputs skip the model and a
-- summary whose source changed shows as stale.
CREATE TABLE provenance (
    node_id        BIGINT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    user_id        BIGINT  NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role           TEXT    NOT NULL CHECK (role IN ('summary', 'overview', 'abstract')),
    source_node_id BIGINT  REFERENCES nodes(id) ON DELETE SET NULL,
    source_hash    TEXT    NOT NULL DEFAULT '',
    fingerprint    TEXT    NOT NULL,
    sources_json   TEXT    NOT NULL,
    job_id         BIGINT ,
    executor       TEXT    NOT NULL DEFAULT '',
    model          TEXT    NOT NULL DEFAULT '',
    skill          TEXT    NOT NULL DEFAULT '',
    prompt_version TEXT    NOT NULL DEFAULT '',
    updated_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX provenance_source ON provenance(source_node_id);

-- +goose Down
DROP TABLE provenance;
DROP TABLE jobs;
