-- Files attached to messages, and the stored bytes they point at (store/files.h).

-- The message's attachment objects as its readers get them: a JSON array, or NULL for none.
ALTER TABLE messages ADD COLUMN attachments TEXT;

-- One row per file of a message: who may read it follows the message's channel.
CREATE TABLE attachments (
    id           TEXT PRIMARY KEY,
    message_id   TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    channel_id   TEXT NOT NULL,
    server_id    TEXT,
    uploader_id  TEXT NOT NULL,
    blob         TEXT NOT NULL,
    thumb_blob   TEXT,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size         INTEGER NOT NULL,
    created_at   INTEGER NOT NULL
);
CREATE INDEX attachments_by_message ON attachments(message_id);
CREATE INDEX attachments_by_server ON attachments(server_id, size);
CREATE INDEX attachments_by_blob ON attachments(blob);
CREATE INDEX attachments_by_thumb ON attachments(thumb_blob);

-- Every stored blob, claimed when a message refers to it; the sweep deletes those nothing
-- refers to once past the grace period.
CREATE TABLE blobs (
    hash       TEXT PRIMARY KEY,
    size       INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);

-- The bytes themselves when files are kept in the database: base64 text in chunks.
CREATE TABLE blob_chunks (
    hash TEXT NOT NULL,
    seq  INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (hash, seq)
);
