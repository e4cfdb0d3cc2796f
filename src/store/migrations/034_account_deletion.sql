-- An account its person deleted: the row stays, as "Conta apagada", so that its messages keep an
-- author; its name is held for 30 days, then a new account may take it.
ALTER TABLE users ADD COLUMN deleted_at INTEGER;
