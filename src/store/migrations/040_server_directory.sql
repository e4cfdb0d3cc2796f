-- The server directory: what a discoverable server says of itself (a description and up to five
-- folded tags, as a JSON array), and a version of its icon so the directory can link to it
-- instead of carrying the image inline.
ALTER TABLE servers ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE servers ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE servers ADD COLUMN icon_version INTEGER NOT NULL DEFAULT 0;
UPDATE servers SET icon_version = created_at WHERE icon_url IS NOT NULL;
CREATE INDEX servers_discoverable ON servers(id) WHERE discoverable = 1;
