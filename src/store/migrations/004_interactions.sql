-- Interactions: a person invoking a command, clicking a component or submitting a form,
-- answered once by the application within 15 minutes.
CREATE TABLE interactions (
    id              TEXT PRIMARY KEY,
    application_id  TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    server_id       TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    channel_id      TEXT NOT NULL,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type            TEXT NOT NULL,                -- command | component | modal_submit
    command_name    TEXT,
    message_id      TEXT,                         -- the message a component is on
    payload         TEXT NOT NULL,                -- the INTERACTION_CREATE object as sent
    modal_custom_id TEXT,                         -- answered with a form: its customId
    modal_used      INTEGER NOT NULL DEFAULT 0,   -- that form was submitted
    created_at      INTEGER NOT NULL,
    answered_at     INTEGER
);
-- A form submission looks for the open form of that person and application.
CREATE INDEX interactions_open_modals ON interactions(user_id, application_id, modal_custom_id)
    WHERE modal_custom_id IS NOT NULL;
