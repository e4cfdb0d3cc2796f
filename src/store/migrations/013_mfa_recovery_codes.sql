-- Two-factor recovery codes: shown once when two-factor is turned on (or a new set is asked
-- for), kept only as their SHA-256, each good once.
CREATE TABLE mfa_recovery_codes (
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash  TEXT NOT NULL,
    used_at    INTEGER,
    PRIMARY KEY (user_id, code_hash)
);
