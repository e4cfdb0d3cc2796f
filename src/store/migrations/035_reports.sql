-- Reports of a message or a person to those who moderate: a server's people with
-- GERENCIAR_MENSAGENS for what happened in it; the instance's operators (praca admin reports)
-- for what happened in a DM (server_id NULL). The message is copied as it was when reported.
CREATE TABLE reports (
    id          TEXT PRIMARY KEY,                               -- UUIDv7: time-ordered
    server_id   TEXT REFERENCES servers(id) ON DELETE CASCADE,
    channel_id  TEXT,
    message_id  TEXT,                                           -- NULL: a person reported
    target_id   TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    reason      TEXT NOT NULL,
    details     TEXT,
    content     TEXT,                                           -- JSON: the message, reported
    status      TEXT NOT NULL DEFAULT 'open',                   -- open, resolved, dismissed
    settled_by  TEXT,
    settled_at  INTEGER,
    note        TEXT,
    created_at  INTEGER NOT NULL
);
CREATE INDEX reports_by_server ON reports(server_id, status, id);
CREATE INDEX reports_by_reporter ON reports(reporter_id, target_id);
