-- +goose Up
-- PostgreSQL's index tables became unlogged (its 00040); SQLite has no
-- such thing. The file keeps both dialects' versions in step.
SELECT 1;

-- +goose Down
SELECT 1;
