-- The event log's name, random, given by the first node that starts (store_events_name): the
-- Redis stream of several nodes is named after it, so deployments that share one Redis each
-- follow their own.
ALTER TABLE event_clock ADD COLUMN name TEXT;
