-- A server message's MESSAGE_CREATE and MESSAGE_UPDATE rows now keep no payload, only their
-- message_id: a replay reads the message itself, and one deleted is simply not found. Only rows
-- that still hold a copy of a message (a DM's, and those written before) need redacting, so only
-- they are indexed by message.
DROP INDEX event_log_by_message;
CREATE INDEX event_log_by_message ON event_log(message_id)
    WHERE message_id IS NOT NULL AND payload <> '';
