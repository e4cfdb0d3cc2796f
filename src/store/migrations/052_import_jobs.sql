-- Imports started from the page: the file a person uploaded, read by a `praca import` the node
-- started, which says how far it is; a job not heard from for a while was cut short.
CREATE TABLE import_jobs (
    id          TEXT PRIMARY KEY,                                  -- UUIDv7: time-ordered
    owner_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    format      TEXT NOT NULL,
    file_name   TEXT NOT NULL,
    size        INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'running',                   -- running, done, failed
    progress    INTEGER NOT NULL DEFAULT 0,                        -- per mille of the file read
    messages    INTEGER NOT NULL DEFAULT 0,
    server_id   TEXT REFERENCES servers(id) ON DELETE SET NULL,
    error       TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX import_jobs_by_owner ON import_jobs(owner_id, id);
CREATE INDEX import_jobs_by_server ON import_jobs(server_id);
