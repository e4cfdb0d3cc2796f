-- A person's e-mail address, once verified (lower-case, one account per address), and the code
-- that verifies a new one (only its hash; 30 minutes, five tries).
ALTER TABLE users ADD COLUMN email TEXT;
CREATE UNIQUE INDEX users_by_email ON users(email) WHERE email IS NOT NULL;
CREATE TABLE email_codes (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    code_hash  TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    tries      INTEGER NOT NULL DEFAULT 0
);
