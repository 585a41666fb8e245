-- A delivery in flight keeps its lease in next_attempt_at: the time it is tried again if the
-- worker holding it stops. Claims are read back through the due index by that time and their
-- token, so the token needs no index of its own, which cost two writes per delivery.
UPDATE webhook_deliveries SET next_attempt_at = lease_until
    WHERE status = 'delivering' AND lease_until IS NOT NULL;
ALTER TABLE webhook_deliveries DROP INDEX ix_webhook_deliveries_claim, DROP COLUMN lease_until;
