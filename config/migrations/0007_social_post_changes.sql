-- Editing and unpublishing published posts (issue 4): when each target's message was last edited
-- or deleted, which edit or unpublish job last reached it (a retried job skips the targets it
-- already changed), and the post's change job in flight (one at a time, so edits apply in order).

ALTER TABLE social_post_targets
    ADD COLUMN edited_at DATETIME(6) NULL,
    ADD COLUMN unpublished_at DATETIME(6) NULL,
    ADD COLUMN change_job_id BIGINT NULL;

ALTER TABLE social_posts
    ADD COLUMN change_job_id BIGINT NULL;
