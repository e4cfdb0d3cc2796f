-- A person's saved messages ("Salvos"): theirs alone, gone with the message.
CREATE TABLE saved_messages (
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    saved_at   INTEGER NOT NULL,
    PRIMARY KEY (user_id, message_id)
);
CREATE INDEX saved_messages_by_time ON saved_messages(user_id, saved_at);
CREATE INDEX saved_messages_by_message ON saved_messages(message_id);
