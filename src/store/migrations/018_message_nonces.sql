-- A send's nonce with enforceNonce: the same author's same nonce makes one message (within a
-- day: an older message's nonce is cleared when the nonce comes again).
ALTER TABLE messages ADD COLUMN nonce TEXT;
CREATE UNIQUE INDEX messages_by_nonce ON messages(author_id, nonce) WHERE nonce IS NOT NULL;
