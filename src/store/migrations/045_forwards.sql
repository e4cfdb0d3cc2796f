-- A forwarded message's copy of the message it forwards, as that was when forwarded: the copy
-- stays when the original is edited or deleted (the original's IDs then lead nowhere), and its
-- text is shown, never read again for mentions.
CREATE TABLE forwards (
    message_id        TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    source_id         TEXT NOT NULL,
    source_server_id  TEXT,          -- null: a conversation
    source_channel_id TEXT NOT NULL, -- as the API names it (a thread's parent)
    source_thread_id  TEXT,
    author_id         TEXT NOT NULL,
    author_name       TEXT NOT NULL,
    content           TEXT NOT NULL,
    embeds            TEXT,
    created_at        INTEGER NOT NULL
);
