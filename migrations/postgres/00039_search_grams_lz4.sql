-- +goose Up
-- The trigram arrays are compressed with lz4 too: pglz compressing them
-- was 2.4 % of the machine's CPU while a 10,000-file library was indexed
-- (perf), four times lz4's share for the bodies. lz4 took a quarter of
-- pglz's time on a copyright file's 2,683 trigrams, and kept them in
-- 13.0 KB against 9.2 KB (21.5 KB raw): CPU is what a large import lacks.
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE search_docs ALTER COLUMN grams SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    NULL;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE search_docs ALTER COLUMN grams SET COMPRESSION pglz;
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    NULL;
END
$$;
-- +goose StatementEnd
