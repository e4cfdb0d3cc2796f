-- A server's audit log: who changed what (before and after), and why, kept 90 days.
CREATE TABLE audit_log (
    id             TEXT PRIMARY KEY,            -- UUIDv7: time-ordered
    server_id      TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    actor_id       TEXT NOT NULL,               -- a person, or a bot's user
    application_id TEXT,                        -- when a bot acted
    action         TEXT NOT NULL,               -- channel.update, member.ban, webhook.create…
    target_type    TEXT,                        -- server, channel, role, member, invite…
    target_id      TEXT,
    changes        TEXT,                        -- JSON [{key, old, new}]
    reason         TEXT,
    created_at     INTEGER NOT NULL
);
CREATE INDEX audit_log_by_server ON audit_log(server_id, id);
CREATE INDEX audit_log_by_time ON audit_log(created_at);
