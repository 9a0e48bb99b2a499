-- +goose Up
-- PostgreSQL's literal index changed how it is written (its 00038);
-- SQLite's is unchanged. The file keeps both dialects' versions in step.
SELECT 1;

-- +goose Down
SELECT 1;
