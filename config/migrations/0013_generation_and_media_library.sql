-- Generated resources (articles, images, videos, shorts, presentations, transcripts) and the
-- media library: uploads that wait for their bytes, probed dimensions, several files per job.

CREATE TABLE creations (
    id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    public_id VARCHAR(40) NOT NULL,
    workspace_id BIGINT NOT NULL,
    kind VARCHAR(16) NOT NULL,
    job_id BIGINT NOT NULL,
    request MEDIUMTEXT NOT NULL,      -- JSON, as accepted
    output MEDIUMTEXT NULL,           -- JSON, written by the job that made it
    created_at DATETIME(6) NOT NULL,
    updated_at DATETIME(6) NOT NULL,
    UNIQUE KEY ux_creations_public_id (public_id),
    UNIQUE KEY ux_creations_job (job_id),
    KEY ix_creations_workspace_kind (workspace_id, kind, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A job may own several files (a presentation's PPTX, PDF and thumbnails), one per role.
ALTER TABLE media DROP INDEX ux_media_source_job;
ALTER TABLE media
    ADD COLUMN source_role VARCHAR(32) NOT NULL DEFAULT 'main' AFTER source_job_id,
    ADD COLUMN status VARCHAR(16) NOT NULL DEFAULT 'ready' AFTER kind,
    ADD COLUMN filename VARCHAR(255) NULL AFTER mime_type,
    ADD COLUMN width INT NULL AFTER duration_seconds,
    ADD COLUMN height INT NULL AFTER width,
    ADD COLUMN upload_token_hash CHAR(64) NULL,
    ADD COLUMN upload_expires_at DATETIME(6) NULL,
    ADD UNIQUE KEY ux_media_source_job (source_job_id, source_role),
    ADD KEY ix_media_workspace_kind (workspace_id, kind, id),
    ADD KEY ix_media_pending (status, upload_expires_at);
