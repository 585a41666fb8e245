-- Posting queues (issue 4): weekly time slots in an IANA time zone. A post sent to a queue takes
-- the next free slot as its scheduled_time and keeps the queue's id (social_posts.queue_id).

CREATE TABLE social_queues (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    name VARCHAR(200) NOT NULL,
    timezone VARCHAR(64) NOT NULL,
    slots TEXT NOT NULL,  -- JSON array of {"day": "monday", "time": "09:00"}
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    deleted_at DATETIME(6) NULL,
    KEY ix_social_queues_workspace (workspace_id, deleted_at, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
