-- +goose Up
-- The literal index holds each body's distinct trigrams, cut by the
-- server as SQLite's are (store/search_grams.go), as an int8[] under a
-- GIN index. pg_trgm cut them itself, lower-casing and sorting every
-- trigram of every body: a fifth of PostgreSQL's CPU while a 10,000-file
-- library was indexed, and inserting 62 MB of /usr/share/doc took 9.4 s
-- with its index against 2.9 s with the array's. The index version
-- changes with it (SearchIndexVersion): the index is rebuilt, and until
-- then every search reads the bodies.
DROP INDEX search_docs_trgm;
ALTER TABLE search_docs ADD COLUMN grams int8[];
CREATE INDEX search_docs_grams ON search_docs USING gin (grams);
-- lz4 compresses the bodies four times as fast as pglz, to the same
-- size; a server built without lz4, or older than 14, keeps pglz.
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE search_docs ALTER COLUMN body SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    NULL;
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE search_docs ALTER COLUMN body SET COMPRESSION pglz;
DROP INDEX search_docs_grams;
ALTER TABLE search_docs DROP COLUMN grams;
CREATE INDEX search_docs_trgm ON search_docs USING gin (body public.gin_trgm_ops);
