-- +goose Up
-- PostgreSQL's trigram arrays changed their compression (its 00039);
-- SQLite's index is unchanged. The file keeps both dialects' versions in
-- step.
SELECT 1;

-- +goose Down
SELECT 1;
