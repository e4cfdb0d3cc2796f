-- Web Push: the service's VAPID key pair (one row, made at the first start and the same for every
-- node), the push subscriptions of each person's devices, and what reaches whom per server and
-- per channel.
CREATE TABLE vapid_keys (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
CREATE TABLE push_subscriptions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL UNIQUE,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_by_user ON push_subscriptions(user_id);
CREATE TABLE notification_settings (
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    scope_id          TEXT NOT NULL,
    level             TEXT NOT NULL DEFAULT 'default',
    muted_until       INTEGER NOT NULL DEFAULT 0,
    suppress_everyone INTEGER NOT NULL DEFAULT 0,
    suppress_roles    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, scope_id)
);
CREATE INDEX notification_settings_all ON notification_settings(scope_id) WHERE level = 'all';
