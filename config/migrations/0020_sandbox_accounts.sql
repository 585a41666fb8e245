-- Sandbox accounts (issue 22): a test key connects an account on any platform without the
-- platform. Live keys never see one, and no background work (refresh, health, metrics, sync)
-- reaches one.
-- The metrics lease reads due accounts with sandbox = 0 in due order: a sandbox row never comes
-- due, so leading with the flag keeps the read from walking past them.
ALTER TABLE social_accounts
    ADD COLUMN sandbox TINYINT NOT NULL DEFAULT 0,
    DROP KEY ix_social_accounts_metrics_due,
    ADD KEY ix_social_accounts_metrics_due (sandbox, metrics_due_at);
