-- +goose Up
-- SQLite's trigram index changed how it is written (its 00036);
-- PostgreSQL's pg_trgm index is unchanged. The file keeps both dialects'
-- versions in step.
SELECT 1;

-- +goose Down
SELECT 1;
