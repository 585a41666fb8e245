-- Every job changes status twice on its way (claimed, then finished), and each change rewrites its
-- entry in every index that holds the status: with two such indexes they cost MariaDB about a
-- third of its CPU per job. One index serves both readers: the sweeps read a status across all
-- workspaces (its prefix), the jobs list reads one workspace's jobs in a status newest first (an
-- equality on both leading columns, then the id). No statement filters on the pool.

ALTER TABLE jobs
    DROP KEY ix_jobs_status_pool,
    DROP KEY ix_jobs_workspace_status,
    ADD KEY ix_jobs_status_workspace (status, workspace_id, id);
