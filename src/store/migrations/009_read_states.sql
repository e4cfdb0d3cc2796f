-- How far each person has read in each channel (a server channel, a thread or a DM): the newest
-- message they have seen there. A channel is unread while it holds a newer message by someone
-- else.
CREATE TABLE read_states (
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    channel_id   TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    last_read_id TEXT NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (user_id, channel_id)
);
