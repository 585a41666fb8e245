-- A workspace's own content policy (PUT /content-policy): blocked words and patterns checked with
-- the global [content_policy] lists on every generate call, read by the workspace's id.
CREATE TABLE content_policy_rules (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    kind VARCHAR(8) NOT NULL,
    value VARCHAR(255) NOT NULL,
    created_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_content_policy_rule (workspace_id, kind, value)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
