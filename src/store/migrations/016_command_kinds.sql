-- Commands beyond the slash: context-menu kinds, who may use them by default, localised names
-- and descriptions, per-server permission overrides; forms that are checked on submission;
-- the account's language.
ALTER TABLE application_commands ADD COLUMN type TEXT NOT NULL DEFAULT 'chat'; -- chat | user | message
ALTER TABLE application_commands ADD COLUMN default_member_permissions INTEGER; -- NULL = everyone
ALTER TABLE application_commands ADD COLUMN name_localizations TEXT;          -- JSON object
ALTER TABLE application_commands ADD COLUMN description_localizations TEXT;   -- JSON object

CREATE TABLE command_permissions (
    server_id      TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    command_name   TEXT NOT NULL,
    overrides      TEXT NOT NULL,                -- JSON [{type, id, allow}]
    updated_at     INTEGER NOT NULL,
    PRIMARY KEY (server_id, application_id, command_name)
);
CREATE INDEX command_permissions_by_application ON command_permissions(application_id);

ALTER TABLE interactions ADD COLUMN modal TEXT;  -- the form shown, to check its submission

ALTER TABLE users ADD COLUMN locale TEXT;        -- pt-BR, en-US, es-ES…; NULL = the browser's
