-- A person blocks another: no direct messages between them either way, and the blocker's page
-- collapses the blocked person's messages.
CREATE TABLE blocks (
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
CREATE INDEX blocks_by_blocked ON blocks(blocked_id);
