-- OAuth connects in progress (GET /social/connect/{platform}/authorize): the state sent to the
-- platform is kept only as its SHA-256, bound to the workspace that asked (a profile's, with
-- X-Profile-Id) and to the platform, with the PKCE verifier sealed; a callback takes it once.
CREATE TABLE oauth_states (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    state_hash CHAR(64) NOT NULL,
    workspace_id BIGINT NOT NULL,
    platform VARCHAR(32) NOT NULL,
    code_verifier_enc TEXT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_oauth_states_hash (state_hash),
    KEY ix_oauth_states_expiry (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- OAuth accounts: when the access token expires, so the sync pool refreshes it before, and a
-- lease so that one worker refreshes an account at a time (refresh tokens rotate: a second
-- refresh with the old one would be refused and cost the account its connection).
ALTER TABLE social_accounts
    ADD COLUMN token_expires_at DATETIME(6) NULL,
    ADD COLUMN token_refresh_until DATETIME(6) NULL,
    ADD KEY ix_social_accounts_token_expiry (token_expires_at);
