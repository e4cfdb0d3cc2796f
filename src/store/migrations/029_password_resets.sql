-- One-time links to set a new password (`praca admin reset-password`): only the token's hash is
-- kept; a link is used once, and for an hour at most.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
);
CREATE INDEX password_resets_by_user ON password_resets(user_id);
