-- A community's history brought from elsewhere (praca import): one row per import, the server it
-- fills, and how far it got; running it again resumes (every row it writes has an ID derived
-- from the source's, and is written only when absent).
CREATE TABLE imports (
    id          TEXT PRIMARY KEY,
    format      TEXT NOT NULL,
    source      TEXT NOT NULL,
    server_id   TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    owner_id    TEXT NOT NULL REFERENCES users(id),
    messages    INTEGER NOT NULL DEFAULT 0,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX imports_by_server ON imports(server_id);
CREATE INDEX imports_by_owner ON imports(owner_id);
-- A person an import brought: shown by the name they had there, marked imported, never signs in
-- (no password) until someone claims the account.
ALTER TABLE users ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
