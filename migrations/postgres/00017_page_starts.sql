-- +goose Up
-- Where each PDF page begins in an L2 body, as "page:offset,page:offset…"
-- (offsets in code points). It was a list inside extraction_json, which
-- every listing loads and every read decoded: a 5,000-page book made a read
-- 30 times slower. Here only a read fetches it, and scans it without JSON.
ALTER TABLE file_versions ADD COLUMN page_starts TEXT NOT NULL DEFAULT '';
UPDATE file_versions
   SET page_starts = COALESCE((SELECT string_agg((e->>'page') || ':' || (e->>'offset'), ',' ORDER BY i)
                                 FROM jsonb_array_elements(extraction_json::jsonb->'page_starts') WITH ORDINALITY AS t(e, i)), ''),
       extraction_json = ((extraction_json::jsonb) - 'page_starts')::text
 WHERE extraction_json LIKE '%"page_starts"%';

-- +goose Down
-- An older binary reads no page starts: its reads name no pages until a
-- re-parse.
ALTER TABLE file_versions DROP COLUMN page_starts;
