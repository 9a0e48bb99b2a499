-- +goose Up
-- Groups are named sets of users an admin manages; a share grants one user
-- or one group read or write on a node and everything below it. Shares are
-- keyed by node id, so they follow the node when its owner moves it and end
-- with it when it is deleted.
CREATE TABLE user_groups (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL UNIQUE,
    created_at DATETIME NOT NULL
);

CREATE TABLE group_members (
    group_id INTEGER NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX group_members_user ON group_members(user_id);

CREATE TABLE shares (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    node_id    INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    user_id    INTEGER REFERENCES users(id) ON DELETE CASCADE,
    group_id   INTEGER REFERENCES user_groups(id) ON DELETE CASCADE,
    role       TEXT    NOT NULL CHECK (role IN ('read', 'write')),
    created_at DATETIME NOT NULL,
    CHECK ((user_id IS NULL) <> (group_id IS NULL))
);
CREATE UNIQUE INDEX shares_node_user ON shares(node_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX shares_node_group ON shares(node_id, group_id) WHERE group_id IS NOT NULL;
CREATE INDEX shares_user ON shares(user_id);
CREATE INDEX shares_group ON shares(group_id);
CREATE INDEX shares_owner ON shares(owner_id);

-- Who made a version and who deleted a trash item: a write grantee acts in
-- the owner's tree, and the owner must see it was not them. NULL is the owner.
ALTER TABLE file_versions ADD COLUMN author_id INTEGER;
ALTER TABLE trash_items ADD COLUMN deleted_by INTEGER;

-- A job may compile a file of another user's tree (shared with the job's
-- user); NULL means the job's user owns the source. Two users may compile
-- the same shared file at once, each into their own tree, so the one active
-- job is per user and file.
ALTER TABLE jobs ADD COLUMN source_user_id INTEGER;
DROP INDEX jobs_one_active;
CREATE UNIQUE INDEX jobs_one_active ON jobs(user_id, node_id) WHERE state IN ('queued', 'running');

-- +goose Down
DROP INDEX jobs_one_active;
CREATE UNIQUE INDEX jobs_one_active ON jobs(node_id) WHERE state IN ('queued', 'running');
ALTER TABLE jobs DROP COLUMN source_user_id;
ALTER TABLE trash_items DROP COLUMN deleted_by;
ALTER TABLE file_versions DROP COLUMN author_id;
DROP TABLE shares;
DROP TABLE group_members;
DROP TABLE user_groups;
