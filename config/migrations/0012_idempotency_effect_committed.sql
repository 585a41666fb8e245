-- Set in the handler's own transaction when a keyed request's write commits: such a record is
-- never given back or taken over, even when the answer was lost before it could be stored.
ALTER TABLE idempotency_records ADD COLUMN effect_committed TINYINT NOT NULL DEFAULT 0 AFTER response;
