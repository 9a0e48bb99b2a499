-- +goose Up
-- Models an admin adds in the admin screens, beside those of the config
-- file (which win an id). The API key is sealed with the secrets key
-- (AES-GCM, the model id as associated data); only its last four
-- characters are kept in the clear, for the screens. allowed_users and
-- allowed_groups are JSON arrays of ids: both empty means everyone.
CREATE TABLE admin_models (
    id             TEXT     PRIMARY KEY,
    kind           TEXT     NOT NULL DEFAULT 'chat',
    name           TEXT     NOT NULL DEFAULT '',
    profile        TEXT     NOT NULL,
    base_url       TEXT     NOT NULL DEFAULT '',
    upstream       TEXT     NOT NULL DEFAULT '',
    context_window INTEGER  NOT NULL,
    output_reserve INTEGER  NOT NULL,
    max_output     INTEGER  NOT NULL DEFAULT 0,
    native_tools   INTEGER NOT NULL DEFAULT 0,
    reasoning      INTEGER NOT NULL DEFAULT 0,
    price_input    REAL NOT NULL DEFAULT 0,
    price_output   REAL NOT NULL DEFAULT 0,
    disabled       INTEGER NOT NULL DEFAULT 0,
    api_key_sealed TEXT     NOT NULL DEFAULT '',
    api_key_last4  TEXT     NOT NULL DEFAULT '',
    allowed_users  TEXT     NOT NULL DEFAULT '[]',
    allowed_groups TEXT     NOT NULL DEFAULT '[]',
    created_at     DATETIME NOT NULL,
    updated_at     DATETIME NOT NULL
);

-- Every change to admin_models bumps this one row in the same
-- transaction; each replica polls it to rebuild its models within seconds.
CREATE TABLE admin_models_version (
    id      INTEGER PRIMARY KEY,
    version INTEGER  NOT NULL
);
INSERT INTO admin_models_version (id, version) VALUES (1, 0);

-- +goose Down
DROP TABLE admin_models_version;
DROP TABLE admin_models;
