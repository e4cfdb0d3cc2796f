-- Incoming webhooks: a channel's secret URLs that post messages, and the messages they post
-- (the name and avatar each one showed).
CREATE TABLE webhooks (
    id             TEXT PRIMARY KEY,
    server_id      TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    channel_id     TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    avatar_url     TEXT,
    token_hash     TEXT NOT NULL,               -- SHA-256 of the token; the token is shown once
    creator_id     TEXT NOT NULL,               -- the person or bot user who made it
    application_id TEXT,                        -- when a bot made it
    created_at     INTEGER NOT NULL
);
CREATE INDEX webhooks_by_channel ON webhooks(channel_id);
CREATE INDEX webhooks_by_server ON webhooks(server_id);

ALTER TABLE messages ADD COLUMN webhook_id TEXT;
ALTER TABLE messages ADD COLUMN author_name TEXT;    -- a webhook message: the name it showed
ALTER TABLE messages ADD COLUMN author_avatar TEXT;  -- and its avatar URL, if any
