-- What the platforms report of each connected account, one row per account and UTC day (the
-- day's latest reading), read by the sync pool: follower-stats and analytics read from here.
CREATE TABLE social_account_metrics (
    account_id BIGINT NOT NULL,
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
    PRIMARY KEY (account_id, day)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- When the account's next reading is due; also the lease of the worker reading it now.
ALTER TABLE social_accounts
    ADD COLUMN metrics_due_at DATETIME(6) NULL,
    ADD KEY ix_social_accounts_metrics_due (metrics_due_at);
