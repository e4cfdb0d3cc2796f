-- A message's events are redacted with it: when it is deleted, the events that carried its text
-- are never replayed again (redacted = 1, payload emptied); when it is edited, they carry the new
-- text. message_id finds them.
ALTER TABLE event_log ADD COLUMN message_id TEXT;
ALTER TABLE event_log ADD COLUMN redacted INTEGER NOT NULL DEFAULT 0;
CREATE INDEX event_log_by_message ON event_log(message_id) WHERE message_id IS NOT NULL;
