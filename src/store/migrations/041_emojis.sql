-- A server's own emoji. A deleted one keeps its row (its name, so reactions made with it are
-- still shown by name) without its picture, whose bytes the files' sweep then takes.
CREATE TABLE emojis (
    id         TEXT PRIMARY KEY,
    server_id  TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    animated   INTEGER NOT NULL DEFAULT 0,
    blob       TEXT,
    created_by TEXT,
    created_at INTEGER NOT NULL,
    deleted_at INTEGER
);
CREATE UNIQUE INDEX emojis_by_name ON emojis(server_id, name) WHERE deleted_at IS NULL;
CREATE INDEX emojis_by_server ON emojis(server_id, created_at);
CREATE INDEX emojis_by_blob ON emojis(blob);
