#include "tests/support/post_fixtures.hpp"

#include "common/core/crypto/crypto.hpp"
#include "common/core/redis/redis_pool.hpp"

#include <stdexcept>

namespace squawk::testing {

StackOptions publish_stack(const FakePlatforms& fake) {
    StackOptions options;
    options.worker_arguments = {"--pools", "publish"};
    options.extra_config = fake.config();
    return options;
}

StackOptions https_publish_stack(const FakePlatforms& fake) {
    auto options = publish_stack(fake);
    options.public_base_url = "https://api.e2e.test/v1";
    return options;
}

std::string connect_discord_channel(Stack& stack, FakePlatforms& fake, const std::string& key,
                                    const std::string& channel_id) {
    const std::string token = crypto::random_token(18) + "." + crypto::random_token(6);
    fake.add_discord_channel({{"id", channel_id},
                              {"name", "general-" + channel_id.substr(channel_id.size() - 4)},
                              {"guild_id", "723456789012345678"}},
                             nlohmann::json::array({token}));
    const auto r = stack.request("POST", "/v1/social/connect/discord",
                                 {{"bot_token", token}, {"channel_id", channel_id}}, key);
    if (r.status != 201) throw std::runtime_error("connect failed: " + r.body);
    return r.json["data"]["id"].get<std::string>();
}

social::NewPost new_post(Stack& stack, long long workspace_id, const std::string& content,
                         const std::vector<std::string>& account_ids, time::TimePoint at) {
    social::NewPost post;
    post.workspace_id = workspace_id;
    post.content = content;
    for (const auto& public_id : account_ids) {
        const auto row = stack.db().run([&](db::Session& s) {
            return s.query_one("SELECT id, platform FROM social_accounts WHERE public_id = ?",
                               {public_id});
        });
        if (!row) throw std::runtime_error("no account " + public_id);
        post.targets.push_back(social::NewTarget{row->integer(0), public_id, row->text(1), at});
    }
    return post;
}

std::vector<social::Post> insert_posts(Stack& stack, const std::vector<social::NewPost>& posts) {
    auto written = stack.db().transaction([&](db::Session& s) {
        std::vector<social::Post> out;
        out.reserve(posts.size());
        for (const auto& p : posts) out.push_back(social::PostRepository::insert(s, p));
        return out;
    });
    redis::RedisPool redis(stack.redis_settings(), 1);
    social::enqueue_publish_jobs(redis, written);
    return written;
}

social::Post insert_post(Stack& stack, const social::NewPost& post) {
    return insert_posts(stack, {post}).front();
}

social::Post read_post(Stack& stack, long long post_id) {
    auto post = stack.db().run(
        [&](db::Session& s) { return social::PostRepository::find_by_id(s, post_id); });
    if (!post) throw std::runtime_error("no post " + std::to_string(post_id));
    return *post;
}

social::Post wait_settled(Stack& stack, long long post_id, std::chrono::milliseconds timeout) {
    const auto settled = [&] {
        const auto status = read_post(stack, post_id).status;
        return status == social::PostStatus::published || status == social::PostStatus::partial ||
               status == social::PostStatus::failed;
    };
    if (!Stack::wait_until(settled, timeout))
        throw std::runtime_error("post " + std::to_string(post_id) + " did not settle; it is " +
                                 name_of(read_post(stack, post_id).status) + "\n" +
                                 stack.post_mortem());
    return read_post(stack, post_id);
}

long long attempts_once_completed(Stack& stack, long long job_id) {
    if (!Stack::wait_until(
            [&] {
                return stack.count(
                           "SELECT COUNT(*) FROM jobs WHERE id = ? AND status = 'completed'",
                           {job_id}) == 1;
            },
            std::chrono::seconds(10)))
        throw std::runtime_error("job " + std::to_string(job_id) + " did not complete\n" +
                                 stack.post_mortem());
    return stack.count("SELECT attempts FROM jobs WHERE id = ?", {job_id});
}

std::vector<nlohmann::json> post_events(Stack& stack, long long post_id) {
    std::vector<nlohmann::json> out;
    stack.db().run([&](db::Session& s) {
        for (const auto& r : s.query("SELECT name, data FROM events WHERE name LIKE 'post.%'"
                                     " AND JSON_EXTRACT(data, '$.id') = ? ORDER BY id",
                                     {post_id}))
            out.push_back({{"name", r.text(0)}, {"data", nlohmann::json::parse(r.text(1))}});
    });
    return out;
}

}  // namespace squawk::testing
