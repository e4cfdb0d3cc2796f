-- Idempotency-Key: a caller's key and the first answer it got (status and body), a day.
CREATE TABLE idempotency_keys (
    caller_id    TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,            -- SHA-256 of method, target and body
    status       INTEGER NOT NULL DEFAULT 0, -- 0 while the first request runs
    body         TEXT,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (caller_id, key)
);
CREATE INDEX idempotency_keys_by_time ON idempotency_keys(created_at);
