-- Dashboard accounts (issue 23): invitations an owner can list and revoke, an optional second
-- factor (TOTP) per user, and the half-finished sign-ins that wait for its code.

-- An invitation is named by its id on the team page; the token's hash stays the lookup key.
ALTER TABLE dashboard_invitations
    ADD COLUMN id BIGINT NOT NULL AUTO_INCREMENT UNIQUE FIRST,
    ADD COLUMN revoked_at DATETIME(6) NULL;

-- Secrets are sealed with security.secret_key. totp_last_step is the last 30-second step whose
-- code was accepted: a code of that step or an earlier one is refused, so none is used twice.
ALTER TABLE dashboard_users
    ADD COLUMN totp_secret VARCHAR(255) NULL,
    ADD COLUMN totp_pending_secret VARCHAR(255) NULL,
    ADD COLUMN totp_last_step BIGINT NULL;

-- A sign-in whose password was right and whose code is awaited: found by the SHA-256 of the id
-- its browser holds, until expires_at. No session exists before the code is right.
CREATE TABLE dashboard_sign_in_challenges (
    id_hash CHAR(64) NOT NULL PRIMARY KEY,
    user_id BIGINT NOT NULL,
    expires_at DATETIME(6) NOT NULL,
    KEY ix_dashboard_sign_in_challenges_user (user_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
