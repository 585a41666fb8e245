-- The daily allowance a send counted against (spec 8.2): TikTok's videos and photos are capped
-- apart ("tiktok:video", "tiktok:photo"); NULL for sends before this and for platforms with one
-- allowance, which count under the platform.
ALTER TABLE social_post_targets ADD COLUMN allowance VARCHAR(32) NULL AFTER publish_stage;
