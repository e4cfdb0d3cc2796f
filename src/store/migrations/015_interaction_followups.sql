-- Answering later: an interaction's own token (its SHA-256), what its answer was, and the
-- follow-ups sent with it.
ALTER TABLE interactions ADD COLUMN token_hash TEXT;
ALTER TABLE interactions ADD COLUMN deferred INTEGER NOT NULL DEFAULT 0;
ALTER TABLE interactions ADD COLUMN ephemeral INTEGER NOT NULL DEFAULT 0;
ALTER TABLE interactions ADD COLUMN response_message_id TEXT;
ALTER TABLE interactions ADD COLUMN followups INTEGER NOT NULL DEFAULT 0;
