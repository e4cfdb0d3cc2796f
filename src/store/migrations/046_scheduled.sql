-- Messages a person scheduled, sent by the server at their time (on whichever node takes them
-- first: a lease in claimed_until, and the send's nonce makes a second attempt a no-op), and the
-- reminders a person set for themselves.
CREATE TABLE scheduled_messages (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    server_id     TEXT,          -- null: a conversation
    channel_id    TEXT NOT NULL, -- the room: a channel, a thread or a conversation
    content       TEXT NOT NULL,
    send_at       INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    state         TEXT NOT NULL DEFAULT 'pending', -- pending, sent, failed
    claimed_until INTEGER NOT NULL DEFAULT 0,
    message_id    TEXT,          -- sent: the message it made
    error         TEXT           -- failed: why
);
CREATE INDEX scheduled_messages_due ON scheduled_messages(state, send_at);
CREATE INDEX scheduled_messages_by_user ON scheduled_messages(user_id, send_at);
CREATE TABLE reminders (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    message_id    TEXT,          -- about a message (null: one's own words only)
    note          TEXT NOT NULL,
    remind_at     INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    state         TEXT NOT NULL DEFAULT 'pending', -- pending, done
    claimed_until INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX reminders_due ON reminders(state, remind_at);
CREATE INDEX reminders_by_user ON reminders(user_id, remind_at);
