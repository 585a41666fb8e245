-- The dashboard's jobs list (issue 23) filters a workspace's jobs by status or by type, newest
-- first: each filter is a range on its own index, read backwards from a row id, instead of a walk
-- through every job of the workspace.

ALTER TABLE jobs
    ADD KEY ix_jobs_workspace_status (workspace_id, status, id),
    ADD KEY ix_jobs_workspace_type (workspace_id, type, id);
