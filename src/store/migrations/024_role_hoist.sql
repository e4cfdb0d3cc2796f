-- A role may be shown apart in the member list: its holders who are connected are listed under
-- it, above everyone else connected.
ALTER TABLE roles ADD COLUMN hoist INTEGER NOT NULL DEFAULT 0;
