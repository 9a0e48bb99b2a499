-- +goose Up
-- The tree's badges ask for the latest job of each listed file
-- (MAX(id) per node_id); without this index that scans every job of the user.
CREATE INDEX jobs_node ON jobs(node_id, id);

-- +goose Down
DROP INDEX jobs_node;
