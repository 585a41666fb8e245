-- The dashboard's posts calendar (issue 23) reads a workspace's targets by the time they are due,
-- a week or a month at a time: a range on this index rather than every target of the workspace.

ALTER TABLE social_post_targets
    ADD KEY ix_social_post_targets_calendar (workspace_id, scheduled_time);
