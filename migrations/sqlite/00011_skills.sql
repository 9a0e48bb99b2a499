-- +goose Up
-- A skill is a named compile prompt a user wrote (the built-in skills live
-- in code, not here). A job copies the prompt into its configuration
-- snapshot at enqueue, so editing or deleting a skill never reaches a
-- queued job or its retry. output_language is a BCP 47 tag or ''.
CREATE TABLE skills (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name            TEXT    NOT NULL,
    description     TEXT    NOT NULL DEFAULT '',
    prompt          TEXT    NOT NULL,
    output_language TEXT    NOT NULL DEFAULT '',
    created_at      DATETIME NOT NULL,
    updated_at      DATETIME NOT NULL,
    UNIQUE (user_id, name)
);
-- A generated file names the skill it was written with: skill is its name,
-- skill_id its id ("builtin:<name>" or "s_<n>") and skill_hash the first 12
-- hex digits of the SHA-256 of the prompt text the job used.
ALTER TABLE provenance ADD COLUMN skill_id TEXT NOT NULL DEFAULT '';
ALTER TABLE provenance ADD COLUMN skill_hash TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE provenance DROP COLUMN skill_hash;
ALTER TABLE provenance DROP COLUMN skill_id;
DROP TABLE skills;
