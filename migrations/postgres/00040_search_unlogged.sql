-- +goose Up
-- The search index is derived from the stored text bodies and can be
-- rebuilt from them, so its tables are unlogged: writing them through
-- the write-ahead log cost a fifth of the machine's CPU while a
-- 10,000-file library was indexed (docs/BENCHMARKS.md). A crash empties
-- unlogged tables (a clean restart keeps them); search_alive, emptied
-- with them, is how the servers notice and rebuild
-- (store/search_index.go).
--
-- A logged table cannot reference an unlogged one, so a file's
-- embeddings now go with its node rather than with its index row; they
-- stay tied to the version they embed, and outlive a rebuild.
ALTER TABLE embed_docs DROP CONSTRAINT embed_docs_node_id_fkey;
ALTER TABLE embed_docs ADD CONSTRAINT embed_docs_node_id_fkey FOREIGN KEY (node_id) REFERENCES nodes(id) ON DELETE CASCADE;
ALTER TABLE rank_terms SET UNLOGGED;
ALTER TABLE rank_docs SET UNLOGGED;
ALTER TABLE search_docs SET UNLOGGED;
CREATE UNLOGGED TABLE search_alive (id INTEGER PRIMARY KEY CHECK (id = 1));
INSERT INTO search_alive VALUES (1);

-- +goose Down
DROP TABLE search_alive;
ALTER TABLE search_docs SET LOGGED;
ALTER TABLE rank_docs SET LOGGED;
ALTER TABLE rank_terms SET LOGGED;
ALTER TABLE embed_docs DROP CONSTRAINT embed_docs_node_id_fkey;
DELETE FROM embed_docs e WHERE NOT EXISTS (SELECT 1 FROM search_docs d WHERE d.node_id = e.node_id);
ALTER TABLE embed_docs ADD CONSTRAINT embed_docs_node_id_fkey FOREIGN KEY (node_id) REFERENCES search_docs(node_id) ON DELETE CASCADE;
