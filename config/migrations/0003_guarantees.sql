-- API guarantees: profiles, the wallet ledger and auto-recharge settings, idempotency records,
-- the request log, the connected-account rows the rate tier counts, and job billing for refunds.

-- A profile is a workspace of its own (parent_workspace_id = the owner) plus this record.
CREATE TABLE profiles (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    owner_workspace_id BIGINT NOT NULL,
    name VARCHAR(200) NOT NULL,
    external_id VARCHAR(200) NULL,
    status VARCHAR(16) NOT NULL,
    paused_for_billing TINYINT NOT NULL DEFAULT 0,
    created_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_profiles_workspace (workspace_id),
    KEY ix_profiles_owner (owner_workspace_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

ALTER TABLE wallets
    ADD COLUMN monthly_reset_at DATETIME(6) NULL,
    ADD COLUMN auto_recharge_enabled TINYINT NOT NULL DEFAULT 0,
    ADD COLUMN auto_recharge_below_units BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN auto_recharge_amount_units BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN card_on_file TINYINT NOT NULL DEFAULT 0;

-- Append-only: every change of a wallet is one row; deltas are in units of 1/10,000 credit.
-- kind: credit (operator), charge, reversal (the call failed before its work began), refund
-- (the work failed on our side), monthly_reset.
CREATE TABLE wallet_ledger (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    kind VARCHAR(16) NOT NULL,
    operation VARCHAR(64) NULL,
    purchased_delta BIGINT NOT NULL,
    monthly_delta BIGINT NOT NULL,
    purchased_after BIGINT NOT NULL,
    monthly_after BIGINT NOT NULL,
    reference VARCHAR(100) NULL,
    created_at DATETIME(6) NOT NULL,
    KEY ix_ledger_workspace (workspace_id, created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The charge a job was paid with, so a failure on our side refunds it exactly once.
ALTER TABLE jobs
    ADD COLUMN charge_ledger_id BIGINT NULL,
    ADD COLUMN refunded TINYINT NOT NULL DEFAULT 0;

-- status NULL while the first request is still running (its lock lasts until locked_until).
CREATE TABLE idempotency_records (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    endpoint VARCHAR(2100) NOT NULL,
    request_hash CHAR(64) NOT NULL,
    status INT NULL,
    response MEDIUMTEXT NULL,
    locked_until DATETIME(6) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_idempotency_key (workspace_id, idempotency_key),
    KEY ix_idempotency_expires (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row per API request; workspace_id is the caller's (NULL before a key was accepted).
CREATE TABLE request_log (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NULL,
    profile_id BIGINT NULL,
    key_prefix VARCHAR(20) NULL,
    request_id VARCHAR(48) NOT NULL,
    method VARCHAR(8) NOT NULL,
    route VARCHAR(200) NOT NULL,
    status INT NOT NULL,
    duration_us BIGINT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    KEY ix_request_log_workspace (workspace_id, id),
    KEY ix_request_log_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Connected social accounts; the rate-limit tier counts the connected ones of a workspace.
CREATE TABLE social_accounts (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    platform VARCHAR(32) NOT NULL,
    status VARCHAR(16) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    KEY ix_social_accounts_workspace (workspace_id, status)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
