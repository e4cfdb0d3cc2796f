-- One clock for the event log's positions when several nodes write (PostgreSQL): each
-- transaction takes its positions from this row just before it commits and holds the row's
-- lock through the commit, so positions follow commit order and have no holes. A reader that
-- has seen position P has then seen, or can still read, everything before it. (SQLite has
-- one writer, whose positions follow commit order already; there the row is not used.)
CREATE TABLE event_clock (
    id   INTEGER PRIMARY KEY,
    last INTEGER NOT NULL
);
INSERT INTO event_clock (id, last) SELECT 1, COALESCE(MAX(position), 0) FROM event_log;
