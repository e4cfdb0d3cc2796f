-- The address an import found for a placeholder (lower-case, unverified: the source's word), so
-- that the person whose verified address it is may claim the placeholder without a code.
ALTER TABLE users ADD COLUMN imported_email TEXT;
CREATE INDEX users_by_imported_email ON users(imported_email) WHERE imported_email IS NOT NULL;
