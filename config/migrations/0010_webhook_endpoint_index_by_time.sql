-- The endpoint index no longer carries the status: a delivery changes status twice (claimed, then
-- recorded), and each change moved its entry in this index as well as in the due index. Holding,
-- resuming and deleting an endpoint find its waiting deliveries through the due index instead,
-- whose status ranges hold only what waits; replaying dead letters since a time uses this one.
ALTER TABLE webhook_deliveries DROP INDEX ix_webhook_deliveries_endpoint,
    ADD INDEX ix_webhook_deliveries_endpoint_created (endpoint_id, created_at);
