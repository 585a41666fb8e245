-- What a long job is doing now (narrating, composing, ...), beside its progress; cleared when it
-- completes.
ALTER TABLE jobs ADD COLUMN stage VARCHAR(32) NULL AFTER progress;
