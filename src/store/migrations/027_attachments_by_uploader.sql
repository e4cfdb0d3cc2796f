-- Each account's stored files, summed for its quota (--account-quota-mb) from the index alone.
CREATE INDEX attachments_by_uploader ON attachments(uploader_id, size);
