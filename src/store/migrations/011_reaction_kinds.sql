-- One row per distinct reaction on a message, with how many people chose it: the cap on
-- distinct reactions and the count an event carries are read here, in as many rows as there
-- are kinds, never by walking every person's reaction.
CREATE TABLE reaction_kinds (
    message_id      TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    emoji           TEXT NOT NULL DEFAULT '',
    custom_emoji_id TEXT NOT NULL DEFAULT '',
    count           INTEGER NOT NULL,
    PRIMARY KEY (message_id, emoji, custom_emoji_id)
);
INSERT INTO reaction_kinds (message_id, emoji, custom_emoji_id, count)
    SELECT message_id, emoji, custom_emoji_id, count(*) FROM reactions
    GROUP BY message_id, emoji, custom_emoji_id;
