-- Connected social accounts (issue 4): identity on the platform, sealed credentials and health;
-- account groups. Rows written before this migration (status and platform only) stay valid.

-- live_identity is the external identity while connected, NULL otherwise, so one workspace
-- cannot connect the same chat or channel twice yet may reconnect it after a disconnect.
ALTER TABLE social_accounts
    ADD COLUMN public_id VARCHAR(40) NULL,
    ADD COLUMN display_name VARCHAR(200) NULL,
    ADD COLUMN external_id VARCHAR(200) NULL,
    ADD COLUMN external_handle VARCHAR(200) NULL,
    ADD COLUMN credentials_enc TEXT NULL,
    ADD COLUMN token_valid TINYINT NOT NULL DEFAULT 1,
    ADD COLUMN last_error VARCHAR(1000) NULL,
    ADD COLUMN last_checked_at DATETIME(6) NULL,
    ADD COLUMN updated_at DATETIME(6) NULL,
    ADD COLUMN live_identity VARCHAR(200)
        GENERATED ALWAYS AS (IF(status = 'connected', external_id, NULL)) STORED,
    ADD UNIQUE KEY ux_social_accounts_public_id (public_id),
    ADD UNIQUE KEY ux_social_accounts_identity (workspace_id, platform, live_identity),
    ADD KEY ix_social_accounts_list (workspace_id, status, platform, id);

CREATE TABLE account_groups (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    public_id VARCHAR(40) NOT NULL,
    workspace_id BIGINT NOT NULL,
    name VARCHAR(200) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_account_groups_public_id (public_id),
    KEY ix_account_groups_workspace (workspace_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE account_group_members (
    group_id BIGINT NOT NULL,
    account_id BIGINT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (group_id, account_id),
    KEY ix_account_group_members_account (account_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
