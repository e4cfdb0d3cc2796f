-- A message's channel is no longer checked by a foreign key: its check, a query per row,
-- repeated the lock that every insert of messages already takes on the channel (FOR KEY SHARE,
-- message_rows.c and messages.c), and was a tenth of what PostgreSQL spent on a send. Deleting
-- a channel still deletes its messages, by this trigger, as the key's ON DELETE CASCADE did.
ALTER TABLE messages DROP CONSTRAINT messages_channel_id_fkey;
CREATE FUNCTION praca_channel_messages_gone() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
    DELETE FROM messages WHERE channel_id = OLD.id;
    RETURN NULL;
END $f$;
CREATE TRIGGER channel_messages_gone AFTER DELETE ON channels
    FOR EACH ROW EXECUTE FUNCTION praca_channel_messages_gone();
