-- Until when a platform asked Squawk to slow down for an account (a 429 with Retry-After, X's
-- x-rate-limit-reset, Meta's usage headers): no send to the account starts before it.

ALTER TABLE social_accounts
    ADD COLUMN cooldown_until DATETIME(6) NULL AFTER reconnect_reason;
