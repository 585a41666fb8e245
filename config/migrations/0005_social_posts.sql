-- Social posts (issue 4): a post, one target per connected account it goes to, and the publish
-- job of each target. The post's status sums up its targets; the targets carry the publish state.

CREATE TABLE social_posts (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    -- draft, scheduled, processing, published, partial, failed, external
    status VARCHAR(16) NOT NULL,
    content MEDIUMTEXT NOT NULL,
    -- SHA-256 of the content, for the 24-hour duplicate guard.
    content_hash CHAR(64) NOT NULL,
    link VARCHAR(2048) NULL,
    media_urls TEXT NULL,             -- JSON array of image URLs
    platform_options MEDIUMTEXT NULL, -- JSON object keyed by platform, as the client sent it
    first_comments TEXT NULL,         -- JSON
    metadata TEXT NULL,               -- JSON object set by update-metadata
    is_test TINYINT NOT NULL DEFAULT 0,
    queue_id BIGINT NULL,
    scheduled_time DATETIME(6) NULL,  -- the earliest target's time
    published_at DATETIME(6) NULL,
    recycle_interval_hours INT NULL,
    recycle_max_repeats INT NULL,
    recycle_until DATETIME(6) NULL,
    recycle_count INT NOT NULL DEFAULT 0,
    recycle_parent_id BIGINT NULL,    -- the first post of the chain; NULL on that post itself
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    deleted_at DATETIME(6) NULL,
    KEY ix_social_posts_list (workspace_id, deleted_at, id),
    KEY ix_social_posts_status (workspace_id, status, id),
    KEY ix_social_posts_duplicates (workspace_id, content_hash, created_at),
    KEY ix_social_posts_queue (queue_id, scheduled_time),
    KEY ix_social_posts_chain (recycle_parent_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE social_post_targets (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    post_id BIGINT NOT NULL,
    workspace_id BIGINT NOT NULL,
    account_id BIGINT NOT NULL,
    platform VARCHAR(32) NOT NULL,
    -- draft, scheduled, queued, publishing, published, failed, cancelled
    status VARCHAR(16) NOT NULL,
    -- validating, processing_media, publishing while a publish runs; NULL otherwise
    publish_stage VARCHAR(20) NULL,
    scheduled_time DATETIME(6) NOT NULL,
    job_id BIGINT NULL,
    -- Set just before the platform is called: an attempt that finds it set without an outcome
    -- knows an earlier one may have published, and must not send again.
    send_started_at DATETIME(6) NULL,
    external_id VARCHAR(200) NULL,    -- the platform's message id
    url VARCHAR(2048) NULL,
    error TEXT NULL,                  -- JSON {code, message, detail}
    transcodes TEXT NULL,             -- JSON array of media fixes applied
    published_at DATETIME(6) NULL,
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    KEY ix_social_post_targets_post (post_id),
    KEY ix_social_post_targets_platform (workspace_id, platform, post_id),
    KEY ix_social_post_targets_caps (account_id, published_at),
    KEY ix_social_post_targets_pending (account_id, status),
    UNIQUE KEY ux_social_post_targets_message (account_id, external_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row per content a workspace posted: creating a post locks its content's row, so two
-- identical posts sent at once check the duplicate guard in turn while different contents never
-- wait for each other. Rows past the guard's window are swept.
CREATE TABLE social_post_fingerprints (
    workspace_id BIGINT NOT NULL,
    content_hash CHAR(64) NOT NULL,
    locked_at DATETIME(6) NOT NULL,
    PRIMARY KEY (workspace_id, content_hash),
    KEY ix_social_post_fingerprints_age (locked_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
