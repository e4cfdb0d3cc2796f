-- What links show. link_previews is each page's preview as last read, shared by every message
-- that links it (a page without one is remembered too, for less long); message_previews holds the
-- previews a message shows, in its links' order. A server may turn previews off.
CREATE TABLE link_previews (
    url         TEXT PRIMARY KEY,
    fetched_at  INTEGER NOT NULL,
    found       INTEGER NOT NULL,
    title       TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    site_name   TEXT NOT NULL DEFAULT '',
    image_url   TEXT
);
CREATE TABLE message_previews (
    message_id  TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    channel_id  TEXT NOT NULL,
    position    INTEGER NOT NULL,
    url         TEXT NOT NULL,
    title       TEXT NOT NULL,
    description TEXT NOT NULL,
    site_name   TEXT NOT NULL,
    image_url   TEXT,
    PRIMARY KEY (message_id, position)
);
CREATE INDEX message_previews_by_channel ON message_previews(channel_id, message_id);
ALTER TABLE servers ADD COLUMN link_previews INTEGER NOT NULL DEFAULT 1;
