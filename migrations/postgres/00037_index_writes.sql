-- +goose Up
-- A file's postings were checked row by row against rank_docs (the
-- foreign key: a lookup and a row lock for each of the ~330 words of an
-- average file), which was half of the word index's write time in a
-- 10,000-file import. Postings are only written in the transaction that
-- writes their rank_docs row, after it, so the check guarded nothing the
-- writer does not; what the key's ON DELETE CASCADE did, the trigger does.
ALTER TABLE rank_terms DROP CONSTRAINT rank_terms_node_id_fkey;
-- +goose StatementBegin
CREATE FUNCTION rank_docs_gone() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    DELETE FROM rank_terms WHERE node_id = OLD.node_id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER rank_docs_gone AFTER DELETE ON rank_docs FOR EACH ROW EXECUTE FUNCTION rank_docs_gone();

-- +goose Down
DROP TRIGGER rank_docs_gone ON rank_docs;
DROP FUNCTION rank_docs_gone();
DELETE FROM rank_terms t WHERE NOT EXISTS (SELECT 1 FROM rank_docs d WHERE d.node_id = t.node_id);
ALTER TABLE rank_terms ADD CONSTRAINT rank_terms_node_id_fkey FOREIGN KEY (node_id) REFERENCES rank_docs(node_id) ON DELETE CASCADE;
