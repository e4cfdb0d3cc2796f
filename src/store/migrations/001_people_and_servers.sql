-- People, sessions, servers, channels, roles, members, invites, bans.
-- IDs are UUIDv7 text; times are integer milliseconds since the Unix epoch.

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE,
    display_name  TEXT NOT NULL,
    password_hash TEXT,                          -- NULL for bot users
    is_bot        INTEGER NOT NULL DEFAULT 0,
    mfa_secret    TEXT,                          -- TOTP secret, pending until mfa_enabled
    mfa_enabled   INTEGER NOT NULL DEFAULT 0,
    mfa_last_step INTEGER NOT NULL DEFAULT 0,    -- last TOTP step accepted (no reuse)
    created_at    INTEGER NOT NULL
);

-- Session and bot tokens, by the SHA-256 of the token: the token itself is never stored.
CREATE TABLE tokens (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('session', 'bot')),
    created_at INTEGER NOT NULL
);
CREATE INDEX tokens_by_user ON tokens(user_id);

CREATE TABLE servers (
    id                        TEXT PRIMARY KEY,
    name                      TEXT NOT NULL,
    icon_url                  TEXT,
    owner_id                  TEXT NOT NULL REFERENCES users(id),
    verification_level        INTEGER NOT NULL DEFAULT 0,
    requires_rules_acceptance INTEGER NOT NULL DEFAULT 0,
    rules                     TEXT NOT NULL DEFAULT '',
    requires_2fa              INTEGER NOT NULL DEFAULT 0,
    discoverable              INTEGER NOT NULL DEFAULT 0,
    automod_blocked_words     TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
    automod_max_mentions      INTEGER,
    created_at                INTEGER NOT NULL
);

-- Server channels (text, forum, voice), threads (parent_id set) and DMs (server_id NULL).
CREATE TABLE channels (
    id         TEXT PRIMARY KEY,
    server_id  TEXT REFERENCES servers(id) ON DELETE CASCADE,
    parent_id  TEXT REFERENCES channels(id) ON DELETE CASCADE,
    type       TEXT NOT NULL CHECK (type IN ('text', 'forum', 'voice', 'thread', 'dm')),
    name       TEXT NOT NULL,
    topic      TEXT,
    position   INTEGER NOT NULL DEFAULT 0,
    dm_key     TEXT UNIQUE,                      -- "<lower id>:<higher id>" for a DM
    created_at INTEGER NOT NULL
);
CREATE INDEX channels_by_server ON channels(server_id, position);

CREATE TABLE dm_members (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (channel_id, user_id)
);
CREATE INDEX dm_members_by_user ON dm_members(user_id);

-- The @everyone role has the server's own ID and position 0.
CREATE TABLE roles (
    id          TEXT PRIMARY KEY,
    server_id   TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    permissions INTEGER NOT NULL,
    color       INTEGER NOT NULL DEFAULT 0,
    mentionable INTEGER NOT NULL DEFAULT 0,
    position    INTEGER NOT NULL,
    managed     INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);
CREATE INDEX roles_by_server ON roles(server_id, position);

CREATE TABLE members (
    server_id         TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    nickname          TEXT,
    joined_at         INTEGER NOT NULL,
    timeout_until     INTEGER,
    timeout_reason    TEXT,
    rules_accepted_at INTEGER,
    PRIMARY KEY (server_id, user_id)
);
CREATE INDEX members_by_user ON members(user_id);

CREATE TABLE member_roles (
    server_id TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    role_id   TEXT NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
    PRIMARY KEY (server_id, user_id, role_id),
    FOREIGN KEY (server_id, user_id) REFERENCES members(server_id, user_id) ON DELETE CASCADE
);
CREATE INDEX member_roles_by_role ON member_roles(role_id);

CREATE TABLE overwrites (
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    target_id  TEXT NOT NULL,
    type       TEXT NOT NULL CHECK (type IN ('role', 'member')),
    allow      INTEGER NOT NULL DEFAULT 0,
    deny       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (channel_id, target_id)
);

CREATE TABLE invites (
    code       TEXT PRIMARY KEY,
    server_id  TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    max_uses   INTEGER NOT NULL DEFAULT 0,       -- 0 = unlimited
    uses       INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER,                          -- NULL = never
    created_at INTEGER NOT NULL
);
CREATE INDEX invites_by_server ON invites(server_id);

CREATE TABLE bans (
    server_id  TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    reason     TEXT,
    banned_by  TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (server_id, user_id)
);
