-- +goose Up
-- Keyset pages of a folder seek to (kind, name, id) > the cursor's key; the
-- id ends the index so the tie-breaker is read from it too.
CREATE INDEX nodes_children_keyset ON nodes(parent_id, kind, name, id);
DROP INDEX nodes_children;

-- +goose Down
CREATE INDEX nodes_children ON nodes(parent_id, kind, name);
DROP INDEX nodes_children_keyset;
