-- Why an account must be connected again (a token refresh the platform refused, a permission the
-- platform says is missing): unlike a failed health check, no later check clears it; only a
-- reconnect does.

ALTER TABLE social_accounts
    ADD COLUMN reconnect_reason VARCHAR(1000) NULL AFTER last_error;
