-- +goose Up
-- A scoped API token sees the conversations and trash items of its folder,
-- matched by node and ancestry rather than by a path that a rename frees
-- for another folder. node_id is the node a conversation is about,
-- parent_id the folder a trash item was deleted from; both become NULL
-- when that node is deleted, and rows from before this migration have
-- none, so a scoped token never sees them.
ALTER TABLE conversations ADD COLUMN node_id INTEGER REFERENCES nodes(id) ON DELETE SET NULL;
ALTER TABLE trash_items ADD COLUMN parent_id INTEGER REFERENCES nodes(id) ON DELETE SET NULL;
CREATE INDEX conversations_node ON conversations(node_id) WHERE node_id IS NOT NULL;
CREATE INDEX trash_items_parent ON trash_items(parent_id) WHERE parent_id IS NOT NULL;

-- +goose Down
DROP INDEX trash_items_parent;
DROP INDEX conversations_node;
ALTER TABLE trash_items DROP COLUMN parent_id;
ALTER TABLE conversations DROP COLUMN node_id;
