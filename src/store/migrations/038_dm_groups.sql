-- Group conversations: a DM channel with no pair key (dm_key NULL), a name (may be empty) and an
-- owner, who alone may remove others; its people in dm_members, in the order they joined.
ALTER TABLE channels ADD COLUMN owner_id TEXT REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE dm_members ADD COLUMN joined_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX channels_by_owner ON channels(owner_id);
