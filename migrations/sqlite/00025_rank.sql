-- +goose Up
-- The word index of ranked search, beside the trigram index: one row per
-- file (rowid = node id), columns weighted apart at query time (name,
-- title, headings, body). The text comes pre-segmented by the server:
-- English words as they are, for the Porter stemmer, and Chinese or
-- Japanese runs as overlapping bigrams. Contentless: the text stays in
-- the blob store, and passages are picked from it when shown.
CREATE VIRTUAL TABLE rank_fts USING fts5(name, title, headings, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');
-- A file gone from search_docs (deleted, trashed, its text gone) leaves
-- the word index with it.
-- +goose StatementBegin
CREATE TRIGGER search_docs_unranked AFTER DELETE ON search_docs BEGIN
    DELETE FROM rank_fts WHERE rowid = old.node_id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER search_docs_unranked;
DROP TABLE rank_fts;
