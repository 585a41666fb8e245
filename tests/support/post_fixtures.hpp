// Posts for publish tests and benchmarks: written the way the API writes them (PostRepository::
// insert, then the publish jobs enqueued), read back, and waited on until they settle.
#pragma once

#include "common/domain/social/post_repository.hpp"
#include "tests/support/fake_platforms.hpp"
#include "tests/support/social_fixtures.hpp"
#include "tests/support/stack.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace squawk::testing {

// A stack whose worker runs only the publish pool, with every platform pointed at `fake`.
StackOptions publish_stack(const FakePlatforms& fake);
using PublishStack = FakePlatformStack<publish_stack>;
// The same with an https public URL: Meta sends users back only to https addresses, so Facebook,
// Instagram and Threads connect only there.
StackOptions https_publish_stack(const FakePlatforms& fake);
using HttpsPublishStack = FakePlatformStack<https_publish_stack>;

// A Discord bot channel the fake knows, connected for `key`'s workspace; returns the account's
// public id. Bot channel messages take a nonce, so a resend is deduplicated by the platform.
std::string connect_discord_channel(Stack& stack, FakePlatforms& fake, const std::string& key,
                                    const std::string& channel_id);

// A post of `content` to the accounts (public ids) at `at`, not yet written.
social::NewPost new_post(Stack& stack, long long workspace_id, const std::string& content,
                         const std::vector<std::string>& account_ids, time::TimePoint at);

// Writes the posts in one transaction, then enqueues their publish jobs.
std::vector<social::Post> insert_posts(Stack& stack, const std::vector<social::NewPost>& posts);
social::Post insert_post(Stack& stack, const social::NewPost& post);

social::Post read_post(Stack& stack, long long post_id);

// Waits until the post is published, partial or failed; returns it as stored.
social::Post wait_settled(Stack& stack, long long post_id,
                          std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The attempts of job `job_id` once its completion is recorded: it lands just after its post
// settles, in a batch of its own. Throws when the job is not completed within 10 s.
long long attempts_once_completed(Stack& stack, long long job_id);

// The post.* events the outbox holds for `post_id` ({name, data}), oldest first.
std::vector<nlohmann::json> post_events(Stack& stack, long long post_id);

}  // namespace squawk::testing
