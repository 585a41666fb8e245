-- A delivery row is updated twice per attempt: claimed, then recorded. InnoDB rewrites a record in
-- place only when no column it changes changes its stored size; otherwise it deletes and inserts
-- the record again, which measured twice as costly for both updates. So the columns those updates
-- set have one size whatever they hold: a CHAR status (every status fits in 16 characters), a
-- claim token that is '' when unclaimed, and a status code that is 0 before any answer, instead of
-- NULLs that take no room. A delivered row is final until replayed, so its delivery time is its
-- last update; the lease is extended by claim token, so the worker's name is not stored.
UPDATE webhook_deliveries SET claim_token = '' WHERE claim_token IS NULL;
UPDATE webhook_deliveries SET last_status_code = 0 WHERE last_status_code IS NULL;
UPDATE webhook_deliveries SET updated_at = delivered_at
    WHERE status = 'delivered' AND delivered_at IS NOT NULL;
ALTER TABLE webhook_deliveries
    MODIFY status CHAR(16) NOT NULL,
    MODIFY claim_token CHAR(32) NOT NULL DEFAULT '',
    MODIFY last_status_code INT NOT NULL DEFAULT 0,
    DROP COLUMN worker_id,
    DROP COLUMN delivered_at;
