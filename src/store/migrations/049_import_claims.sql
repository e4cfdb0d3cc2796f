-- Codes that hand a placeholder an import brought (users.imported) over to a person: the owner
-- makes one for a placeholder and gives it to whoever wrote those messages; claiming it moves
-- the placeholder's messages, reactions and membership to the person. One code per placeholder,
-- kept by its SHA-256, good once and for 7 days.
CREATE TABLE import_claims (
    code_hash  TEXT PRIMARY KEY,
    server_id  TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX import_claims_by_server ON import_claims(server_id);
