-- What did not go out while a target's message did (a thread cut short after its first post, a
-- first comment the platform refused): the target is published, and these show beside it in
-- post_urls._warnings.

ALTER TABLE social_post_targets
    ADD COLUMN warnings TEXT NULL AFTER transcodes;  -- JSON array of sentences
