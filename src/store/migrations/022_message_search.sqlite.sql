-- Full-text search over messages' text: an FTS5 index (accents folded, so "acao" finds "ação")
-- kept off the send path. A send writes nothing here: the writer indexes the messages after
-- `indexed_rowid` in batches (store_search_catch_up), every quarter second and before each
-- search. Edits and deletes of messages already indexed follow at once, by the triggers.
CREATE VIRTUAL TABLE message_search USING fts5(
    content, content='messages', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2');
CREATE TABLE message_search_state (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    indexed_rowid INTEGER NOT NULL              -- every message up to this rowid is indexed
);
-- The messages already there are indexed now, once.
INSERT INTO message_search(message_search) VALUES ('rebuild');
INSERT INTO message_search_state (id, indexed_rowid)
    VALUES (1, (SELECT COALESCE(MAX(rowid), 0) FROM messages));
-- A deleted row leaves the index; and since SQLite gives the next row max(rowid) + 1, the mark
-- never stays above the table's last row (the next message could take a rowid it covers).
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
    INSERT INTO message_search(message_search, rowid, content)
        SELECT 'delete', old.rowid, old.content FROM message_search_state
        WHERE id = 1 AND old.rowid <= indexed_rowid;
    UPDATE message_search_state SET indexed_rowid = (SELECT COALESCE(MAX(rowid), 0) FROM messages)
        WHERE id = 1 AND indexed_rowid > (SELECT COALESCE(MAX(rowid), 0) FROM messages);
END;
CREATE TRIGGER messages_search_update AFTER UPDATE OF content ON messages
    WHEN old.rowid <= (SELECT indexed_rowid FROM message_search_state WHERE id = 1) BEGIN
    INSERT INTO message_search(message_search, rowid, content) VALUES ('delete', old.rowid, old.content);
    INSERT INTO message_search(rowid, content) VALUES (new.rowid, new.content);
END;
