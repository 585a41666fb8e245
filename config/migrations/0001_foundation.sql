-- Workspaces, API keys, jobs, media and the wallet: the records the foundation needs.
-- Every time column is UTC DATETIME(6); sessions run with time_zone '+00:00'.

CREATE TABLE workspaces (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(200) NOT NULL,
    parent_workspace_id BIGINT NULL,
    created_at DATETIME(6) NOT NULL,
    KEY ix_workspaces_parent (parent_workspace_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE api_keys (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    key_hash CHAR(64) NOT NULL,
    key_prefix VARCHAR(20) NOT NULL,
    key_type VARCHAR(8) NOT NULL,
    scopes VARCHAR(2000) NOT NULL,
    rate_limit INT NULL,
    created_at DATETIME(6) NOT NULL,
    revoked_at DATETIME(6) NULL,
    UNIQUE KEY ux_api_keys_hash (key_hash),
    KEY ix_api_keys_workspace (workspace_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE jobs (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    public_id VARCHAR(40) NOT NULL,
    workspace_id BIGINT NOT NULL,
    type VARCHAR(64) NOT NULL,
    pool VARCHAR(32) NOT NULL,
    status VARCHAR(16) NOT NULL,
    progress INT NOT NULL DEFAULT 0,
    payload MEDIUMTEXT NOT NULL,
    result MEDIUMTEXT NULL,
    error TEXT NULL,
    attempts INT NOT NULL DEFAULT 0,
    max_attempts INT NOT NULL,
    is_test TINYINT NOT NULL DEFAULT 0,
    dead_lettered TINYINT NOT NULL DEFAULT 0,
    run_after DATETIME(6) NULL,
    lease_until DATETIME(6) NULL,
    claim_token CHAR(32) NULL,
    worker_id VARCHAR(100) NULL,
    enqueued_at DATETIME(6) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    started_at DATETIME(6) NULL,
    finished_at DATETIME(6) NULL,
    updated_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_jobs_public_id (public_id),
    KEY ix_jobs_workspace (workspace_id, id),
    KEY ix_jobs_status_pool (status, pool, id),
    KEY ix_jobs_claim (claim_token)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE media (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    public_id VARCHAR(40) NOT NULL,
    workspace_id BIGINT NOT NULL,
    kind VARCHAR(16) NOT NULL,
    mime_type VARCHAR(100) NOT NULL,
    size_bytes BIGINT NOT NULL,
    storage_path VARCHAR(500) NOT NULL,
    duration_seconds DOUBLE NULL,
    source_job_id BIGINT NULL,
    created_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_media_public_id (public_id),
    UNIQUE KEY ux_media_source_job (source_job_id),
    KEY ix_media_workspace (workspace_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Balances in units of 1/10,000 credit; the ledger arrives with billing.
CREATE TABLE wallets (
    workspace_id BIGINT NOT NULL PRIMARY KEY,
    purchased_units BIGINT NOT NULL DEFAULT 0,
    monthly_units BIGINT NOT NULL DEFAULT 0,
    currency CHAR(3) NOT NULL DEFAULT 'USD',
    updated_at DATETIME(6) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
