-- A message's poll: what it asks and until when. Its counts are kept per answer, so that a vote
-- changes a few rows by increments (safe between nodes) however many people voted before.
CREATE TABLE polls (
    message_id TEXT PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL,
    question   TEXT NOT NULL,
    answers    TEXT NOT NULL, -- [{id, text, emoji}], IDs 1…n
    multiple   INTEGER NOT NULL,
    ends_at    INTEGER NOT NULL,
    voters     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX polls_by_channel ON polls(channel_id, message_id);
CREATE TABLE poll_answers (
    message_id TEXT NOT NULL REFERENCES polls(message_id) ON DELETE CASCADE,
    answer_id  INTEGER NOT NULL,
    votes      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, answer_id)
);
-- One row per answer a person chose; a deleted account's votes stay counted.
CREATE TABLE poll_votes (
    message_id TEXT NOT NULL REFERENCES polls(message_id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    answer_id  INTEGER NOT NULL,
    PRIMARY KEY (message_id, user_id, answer_id)
);
CREATE INDEX poll_votes_by_user ON poll_votes(user_id, message_id);
