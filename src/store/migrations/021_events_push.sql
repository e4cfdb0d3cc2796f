-- Events pushed over HTTP: an application's events endpoint, how far it has been delivered
-- (a position of event_log), and which node delivers it now (a lease, so two nodes never push
-- the same application's events at once). `events_generation` counts the owner's changes
-- (URL, pause, resume, replay): a node that pushes with an older one stops and reads again.
ALTER TABLE applications ADD COLUMN events_endpoint_url TEXT;
ALTER TABLE applications ADD COLUMN events_cursor INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN events_paused INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN events_generation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE applications ADD COLUMN events_lease_node TEXT;
ALTER TABLE applications ADD COLUMN events_lease_until INTEGER NOT NULL DEFAULT 0;

-- Each delivery attempt, for the portal's delivery log (the latest 100 per application).
CREATE TABLE event_push_attempts (
    id             TEXT PRIMARY KEY,             -- UUIDv7: time-ordered
    application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
    first_position INTEGER NOT NULL,
    last_position  INTEGER NOT NULL,
    events         INTEGER NOT NULL,
    gap            INTEGER NOT NULL DEFAULT 0,   -- the batch began with EVENTS_GAP
    status         INTEGER NOT NULL,             -- the HTTP status; 0 when none came
    latency_ms     INTEGER NOT NULL,
    error          TEXT,
    created_at     INTEGER NOT NULL
);
CREATE INDEX event_push_attempts_by_app ON event_push_attempts(application_id, id);
