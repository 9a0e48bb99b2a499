-- +goose Up
-- How an L2 body was extracted (extractor and version, pages, pages lost,
-- truncation), as JSON: provenance the reader and the summary can cite.
ALTER TABLE file_versions ADD COLUMN extraction_json TEXT;

-- +goose Down
ALTER TABLE file_versions DROP COLUMN extraction_json;
