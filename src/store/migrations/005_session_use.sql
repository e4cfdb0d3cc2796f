-- When a session was last used, so idle sessions expire. NULL: never since it was created.
-- Updated at most once an hour per session.
ALTER TABLE tokens ADD COLUMN last_used_at INTEGER;
