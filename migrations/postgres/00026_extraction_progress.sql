-- +goose Up
-- How far a running extraction has come: pages read of the document's
-- pages, reported by the worker while a long scan is read by OCR.
ALTER TABLE extractions ADD COLUMN pages_read INTEGER NOT NULL DEFAULT 0;
ALTER TABLE extractions ADD COLUMN pages_of INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE extractions DROP COLUMN pages_of;
ALTER TABLE extractions DROP COLUMN pages_read;
