-- The dashboard's people (issue 23): users of a workspace with a role, or server-wide operators
-- (no workspace), their signed-in sessions and the invitations an owner sends. Only hashes of
-- passwords, session ids and invitation tokens are stored.
CREATE TABLE dashboard_users (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NULL,
    email VARCHAR(254) NOT NULL,
    role VARCHAR(16) NOT NULL,
    password_hash VARCHAR(255) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    password_changed_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_dashboard_users_email (email),
    KEY ix_dashboard_users_workspace (workspace_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A session is found by the SHA-256 of the id its cookie holds; it ends at expires_at (absolute)
-- or when last_seen_at is older than the idle limit, whichever comes first.
CREATE TABLE dashboard_sessions (
    id_hash CHAR(64) NOT NULL PRIMARY KEY,
    user_id BIGINT NOT NULL,
    csrf_token VARCHAR(64) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    last_seen_at DATETIME(6) NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    KEY ix_dashboard_sessions_user (user_id),
    KEY ix_dashboard_sessions_expires (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A single-use link to join a workspace with a role: used once (accepted_at), until expires_at.
CREATE TABLE dashboard_invitations (
    token_hash CHAR(64) NOT NULL PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    email VARCHAR(254) NOT NULL,
    role VARCHAR(16) NOT NULL,
    invited_by BIGINT NOT NULL,
    created_at DATETIME(6) NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    accepted_at DATETIME(6) NULL,
    KEY ix_dashboard_invitations_workspace (workspace_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
