-- +goose Up
-- The text encoding a raw version was uploaded in (e.g. gb18030), when it
-- is not UTF-8; the decoded UTF-8 text is then its L2 body. Empty means
-- UTF-8 or not text.
ALTER TABLE file_versions ADD COLUMN encoding TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE file_versions DROP COLUMN encoding;
