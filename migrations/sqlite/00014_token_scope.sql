-- +goose Up
-- A scoped token sees one folder of its owner's tree. scope_node_id follows
-- the folder through renames; when the folder is deleted it becomes NULL
-- while scoped stays TRUE, so the token is refused instead of widening.
ALTER TABLE api_tokens ADD COLUMN scope_node_id INTEGER REFERENCES nodes(id) ON DELETE SET NULL;
ALTER TABLE api_tokens ADD COLUMN scoped BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE api_tokens ADD COLUMN read_only BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE api_tokens DROP COLUMN read_only;
ALTER TABLE api_tokens DROP COLUMN scoped;
ALTER TABLE api_tokens DROP COLUMN scope_node_id;
