-- +goose Up
-- The blob a job needs until it ends (an import's archive): kept in the
-- blob store, which every replica reads, instead of the receiving
-- replica's staging directory, and spared by the blob collection while the
-- job is queued or running.
ALTER TABLE jobs ADD COLUMN blob_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX jobs_blob_hash ON jobs (blob_hash) WHERE blob_hash <> '';

-- +goose Down
DROP INDEX jobs_blob_hash;
ALTER TABLE jobs DROP COLUMN blob_hash;
