-- Every event the gateway delivers, numbered in commit order, so a bot that comes back after a
-- drop or a restart gets what it missed. Rows older than --event-retention-hours are trimmed
-- (the newest row always stays, so positions never start over).
CREATE TABLE event_log (
    position   INTEGER PRIMARY KEY,          -- gap-free, commit order (one writer)
    stream     TEXT,                         -- the server it happened in; NULL: one user's event
    seq        INTEGER,                      -- gap-free per stream (shared mode's stream IDs)
    type       TEXT NOT NULL,
    channel_id TEXT,                         -- whose visibility decides who gets it
    intent     INTEGER NOT NULL DEFAULT 0,   -- the intent bit a bot needs (0: none)
    user_id    TEXT,                         -- the one user it is for; NULL: the server's audience
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL              -- grows with position: trimmed from the front
);

-- The last seq of each stream, kept apart so trimming never makes a stream start over.
CREATE TABLE event_streams (
    stream   TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL
);
