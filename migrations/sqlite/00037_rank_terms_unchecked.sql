-- +goose Up
-- PostgreSQL's word postings lost their row-by-row foreign key check (its
-- 00037); SQLite's word index is FTS5 and unchanged. The file keeps both
-- dialects' versions in step.
SELECT 1;

-- +goose Down
SELECT 1;
