-- What a person shows of themself besides their name: a short "about" and a banner colour.
ALTER TABLE users ADD COLUMN about TEXT;
ALTER TABLE users ADD COLUMN banner_color INTEGER;
