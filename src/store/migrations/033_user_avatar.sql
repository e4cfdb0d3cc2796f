-- A person's picture: two square WebP blobs (256 and 64 pixels), kept while the person uses it.
ALTER TABLE users ADD COLUMN avatar TEXT;
ALTER TABLE users ADD COLUMN avatar_small TEXT;
-- The files sweep asks whether a blob is someone's picture.
CREATE INDEX users_by_avatar ON users (avatar) WHERE avatar IS NOT NULL;
CREATE INDEX users_by_avatar_small ON users (avatar_small) WHERE avatar_small IS NOT NULL;
