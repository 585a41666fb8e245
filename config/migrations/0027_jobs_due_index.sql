-- The lost-work sweep looks for jobs waiting for their time (scheduled or retrying) that are long
-- overdue. By status alone it read every waiting job on each sweep: a million scheduled posts were
-- a million rows every 15 seconds. due_at holds run_after while a job waits and NULL otherwise,
-- and its index holds the overdue ones first. A job that never waits keeps NULL through all of its
-- status changes, so the hot path of immediate jobs never touches this index.
ALTER TABLE jobs
    ADD COLUMN due_at DATETIME(6)
        AS (IF(status IN ('scheduled', 'retrying'), run_after, NULL)) PERSISTENT,
    ADD KEY ix_jobs_due (due_at);
