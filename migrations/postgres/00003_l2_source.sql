-- +goose Up
-- The raw version an L2 body was parsed from: a newer upload makes the old
-- parse stale instead of silently serving it.
ALTER TABLE file_versions ADD COLUMN source_version_id BIGINT;

-- +goose Down
ALTER TABLE file_versions DROP COLUMN source_version_id;
