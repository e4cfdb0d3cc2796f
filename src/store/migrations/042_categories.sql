-- Channel categories: a server's groups of channels, each with a position and overwrites of its
-- own, which channels marked synced copy (they are copied again whenever the category's
-- change; a channel's own change unmarks it). A channel's category_id is its parentId in the API.
CREATE TABLE categories (
    id         TEXT PRIMARY KEY,
    server_id  TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    position   INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE INDEX categories_by_server ON categories(server_id, position);
CREATE TABLE category_overwrites (
    category_id TEXT NOT NULL REFERENCES categories(id) ON DELETE CASCADE,
    target_id   TEXT NOT NULL,
    type        TEXT NOT NULL CHECK (type IN ('role', 'member')),
    allow       INTEGER NOT NULL DEFAULT 0,
    deny        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (category_id, target_id)
);
ALTER TABLE channels ADD COLUMN category_id TEXT REFERENCES categories(id) ON DELETE SET NULL;
ALTER TABLE channels ADD COLUMN synced INTEGER NOT NULL DEFAULT 0;
CREATE INDEX channels_by_category ON channels(category_id);
