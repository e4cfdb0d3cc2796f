-- A person's data archives ("Baixar meus dados"): made one at a time per account, kept 7 days.
CREATE TABLE exports (
    id         TEXT PRIMARY KEY,                               -- UUIDv7: time-ordered
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status     TEXT NOT NULL DEFAULT 'pending',                -- pending, ready, failed
    blob       TEXT,                                           -- the archive, once ready
    size       INTEGER,
    created_at INTEGER NOT NULL,
    ready_at   INTEGER
);
CREATE INDEX exports_by_user ON exports(user_id, id);
CREATE INDEX exports_by_blob ON exports(blob) WHERE blob IS NOT NULL;
-- A person's own messages, in order: their archive walks them a page at a time.
CREATE INDEX messages_by_author ON messages(author_id, id);
