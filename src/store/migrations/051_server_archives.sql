-- A server's portable archives (praca export, from the page): made by its owner, kept 7 days
-- beside people's data archives; a person's own have no server.
ALTER TABLE exports ADD COLUMN server_id TEXT REFERENCES servers(id) ON DELETE CASCADE;
CREATE INDEX exports_by_server ON exports(server_id, id);
