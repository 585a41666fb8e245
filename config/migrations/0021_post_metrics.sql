-- What the platforms report of each published post target, one row per target and UTC day (the
-- day's latest reading), read by the sync pool for the first 30 days after publishing: analytics
-- reads from here.
CREATE TABLE social_post_metrics (
    target_id BIGINT NOT NULL,
    day DATE NOT NULL,
    followers BIGINT NULL,
    following BIGINT NULL,
    impressions BIGINT NULL,
    reach BIGINT NULL,
    likes BIGINT NULL,
    comments BIGINT NULL,
    shares BIGINT NULL,
    saves BIGINT NULL,
    video_views BIGINT NULL,
    recorded_at DATETIME(6) NOT NULL,
    PRIMARY KEY (target_id, day)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- When the target's next reading is due, NULL until its first (due as soon as it is published);
-- also the lease of the worker reading it now. The readers look only at targets published in the
-- window, found by status and time.
ALTER TABLE social_post_targets
    ADD COLUMN metrics_due_at DATETIME(6) NULL,
    ADD KEY ix_social_post_targets_metrics (status, published_at);
