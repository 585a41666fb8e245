-- Webhooks: the event outbox, endpoints, one delivery per event and endpoint, and every attempt.
-- Deliveries are their own queue: workers claim due rows with a lease, so nothing lives only in Redis.

CREATE TABLE events (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    public_id VARCHAR(40) NOT NULL,
    workspace_id BIGINT NOT NULL,
    name VARCHAR(64) NOT NULL,
    data MEDIUMTEXT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    dispatched TINYINT NOT NULL DEFAULT 0,
    dispatched_at DATETIME(6) NULL,
    UNIQUE KEY ux_events_public_id (public_id),
    KEY ix_events_undispatched (dispatched, id),
    KEY ix_events_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE webhook_endpoints (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    public_id VARCHAR(40) NOT NULL,
    workspace_id BIGINT NOT NULL,
    url VARCHAR(2048) NOT NULL,
    events TEXT NOT NULL,
    secret_enc VARCHAR(255) NOT NULL,
    previous_secret_enc VARCHAR(255) NULL,
    previous_secret_expires_at DATETIME(6) NULL,
    status VARCHAR(16) NOT NULL,
    consecutive_failures INT NOT NULL DEFAULT 0,
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_webhook_endpoints_public_id (public_id),
    KEY ix_webhook_endpoints_workspace (workspace_id, status)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE webhook_deliveries (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    endpoint_id BIGINT NOT NULL,
    event_id BIGINT NOT NULL,
    event_name VARCHAR(64) NOT NULL,
    body MEDIUMTEXT NOT NULL,
    status VARCHAR(16) NOT NULL,
    attempts INT NOT NULL DEFAULT 0,
    max_attempts INT NOT NULL,
    next_attempt_at DATETIME(6) NOT NULL,
    claim_token CHAR(32) NULL,
    worker_id VARCHAR(100) NULL,
    lease_until DATETIME(6) NULL,
    last_status_code INT NULL,
    last_error VARCHAR(500) NULL,
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    delivered_at DATETIME(6) NULL,
    UNIQUE KEY ux_webhook_deliveries_event_endpoint (event_id, endpoint_id),
    KEY ix_webhook_deliveries_due (status, next_attempt_at),
    KEY ix_webhook_deliveries_workspace (workspace_id, id),
    KEY ix_webhook_deliveries_endpoint (endpoint_id, status),
    KEY ix_webhook_deliveries_claim (claim_token),
    KEY ix_webhook_deliveries_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE webhook_attempts (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    delivery_id BIGINT NOT NULL,
    attempt INT NOT NULL,
    started_at DATETIME(6) NOT NULL,
    status_code INT NULL,
    duration_ms INT NOT NULL,
    error VARCHAR(500) NULL,
    response_excerpt VARCHAR(1024) NULL,
    KEY ix_webhook_attempts_delivery (delivery_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
