-- Applications, their bots, installs into servers, and install (authorize) sessions.

CREATE TABLE applications (
    id                         TEXT PRIMARY KEY,
    owner_id                   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name                       TEXT NOT NULL,
    description                TEXT NOT NULL DEFAULT '',
    icon_url                   TEXT,
    client_id                  TEXT NOT NULL UNIQUE,          -- 32 hex characters
    bot_user_id                TEXT UNIQUE REFERENCES users(id) ON DELETE SET NULL,
    is_public                  INTEGER NOT NULL DEFAULT 1,
    intents                    INTEGER NOT NULL DEFAULT 0,    -- bitmask, see src/domain/intents.h
    interactions_endpoint_url  TEXT,
    signing_secret             TEXT,                          -- kept to sign requests with HMAC
    client_secret_hash         TEXT,                          -- SHA-256; never shown again
    redirect_uris              TEXT NOT NULL DEFAULT '[]',    -- JSON array of strings
    suspended                  INTEGER NOT NULL DEFAULT 0,
    suspended_reason           TEXT,
    created_at                 INTEGER NOT NULL,
    updated_at                 INTEGER NOT NULL
);
CREATE INDEX applications_by_owner ON applications(owner_id, created_at);

CREATE TABLE installs (
    application_id      TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    server_id           TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    role_id             TEXT NOT NULL REFERENCES roles(id),   -- the managed role "Bot: <name>"
    granted_permissions INTEGER NOT NULL,
    installed_by        TEXT NOT NULL,
    installed_at        INTEGER NOT NULL,
    PRIMARY KEY (application_id, server_id)
);
CREATE INDEX installs_by_server ON installs(server_id);

CREATE TABLE authorize_sessions (
    id                    TEXT PRIMARY KEY,
    application_id        TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    user_id               TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    redirect_uri          TEXT NOT NULL,
    state                 TEXT,
    requested_permissions INTEGER NOT NULL,
    expires_at            INTEGER NOT NULL,
    used_at               INTEGER,
    created_at            INTEGER NOT NULL
);
CREATE INDEX authorize_sessions_by_expiry ON authorize_sessions(expires_at);

-- Slash commands of an application, global (server_id '') or for one server.
CREATE TABLE application_commands (
    application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    server_id      TEXT NOT NULL DEFAULT '',
    name           TEXT NOT NULL,
    description    TEXT NOT NULL,
    options        TEXT NOT NULL DEFAULT '[]',                -- JSON array
    created_at     INTEGER NOT NULL,
    PRIMARY KEY (application_id, server_id, name)
);
