-- Messages, reactions, and the message a thread was started from.

-- channel_id is where the message lives: a server channel, a thread, or a DM channel.
-- thread_parent_id is the thread's parent channel for messages in a thread, else NULL.
CREATE TABLE messages (
    id                 TEXT PRIMARY KEY,
    channel_id         TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    thread_parent_id   TEXT,
    server_id          TEXT,
    author_id          TEXT NOT NULL,
    application_id     TEXT,
    type               TEXT NOT NULL DEFAULT 'text',
    content            TEXT NOT NULL DEFAULT '',
    embeds             TEXT,                              -- JSON array or NULL
    components         TEXT,                              -- JSON array or NULL
    flags              INTEGER NOT NULL DEFAULT 0,
    command_name       TEXT,
    command_invoker_id TEXT,
    reply_to_id        TEXT,
    mentions           TEXT NOT NULL DEFAULT '[]',        -- JSON array of user IDs
    mentioned_role_ids TEXT NOT NULL DEFAULT '[]',
    mentions_everyone  INTEGER NOT NULL DEFAULT 0,
    pinned             INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL,
    edited_at          INTEGER
);
-- History walks this index in UUIDv7 order.
CREATE INDEX messages_by_channel ON messages(channel_id, id);
CREATE INDEX messages_pinned ON messages(channel_id) WHERE pinned = 1;

CREATE TABLE reactions (
    message_id      TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    channel_id      TEXT NOT NULL,
    emoji           TEXT NOT NULL DEFAULT '',
    custom_emoji_id TEXT NOT NULL DEFAULT '',
    user_id         TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    PRIMARY KEY (message_id, emoji, custom_emoji_id, user_id)
);
CREATE INDEX reactions_by_channel ON reactions(channel_id, message_id, created_at);

ALTER TABLE channels ADD COLUMN origin_message_id TEXT;
CREATE UNIQUE INDEX channels_by_origin ON channels(origin_message_id) WHERE origin_message_id IS NOT NULL;
