-- +goose Up
-- FTS5 merges its segments four at a time by default. The index writer
-- commits a segment per batch of small files, so a 10,000-file import
-- rewrote each term about four times over; sixteen at a time halves the
-- levels (its write 12 % shorter in the library benchmark), and a query
-- reads a few more segments. PostgreSQL's 00037 changes its word postings.
INSERT INTO search_fts(search_fts, rank) VALUES ('automerge', 16);
INSERT INTO rank_fts(rank_fts, rank) VALUES ('automerge', 16);

-- +goose Down
INSERT INTO search_fts(search_fts, rank) VALUES ('automerge', 4);
INSERT INTO rank_fts(rank_fts, rank) VALUES ('automerge', 4);
