-- Every event the gateway delivers, numbered in commit order, so a bot that comes back after a
-- drop or a restart gets what it missed. Rows older than --event-retention-hours are trimmed.
CREATE TABLE event_log (
    position   INTEGER PRIMARY KEY AUTOINCREMENT, -- gap-free, commit order, never reused
    stream     TEXT,                         -- the server it happened in; NULL: one user's event
    type       TEXT NOT NULL,
    channel_id TEXT,                         -- whose visibility decides who gets it
    intent     INTEGER NOT NULL DEFAULT 0,   -- the intent bit a bot needs (0: none)
    user_id    TEXT,                         -- the one user it is for; NULL: the server's audience
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX event_log_by_time ON event_log(created_at);
