-- Full-text search over messages' text: PostgreSQL's own, with Portuguese stemming ("correndo"
-- finds "correr"); the index is on the expression, so edits and deletes follow by themselves.
CREATE INDEX messages_search ON messages USING GIN (to_tsvector('portuguese', content));
