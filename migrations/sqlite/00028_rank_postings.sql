-- +goose Up
-- PostgreSQL's word index moved to postings (its 00028); FTS5 keeps its
-- own, so SQLite has nothing to change. The file keeps both dialects'
-- versions in step.
SELECT 1;

-- +goose Down
SELECT 1;
