-- How many times the owner set the cursor (a replay, or pushing turned on again). A batch
-- delivered moves the cursor unless this moved since the batch was read: a pause, a resume or a
-- new URL in between no longer make the batch go out again.
ALTER TABLE applications ADD COLUMN events_replays INTEGER NOT NULL DEFAULT 0;
