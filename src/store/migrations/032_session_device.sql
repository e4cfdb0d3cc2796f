-- Where a person's session was made: the browser's User-Agent (cut to 256 characters) and the
-- address it came from, for the sessions list in Conta.
ALTER TABLE tokens ADD COLUMN device TEXT;
ALTER TABLE tokens ADD COLUMN address TEXT;
