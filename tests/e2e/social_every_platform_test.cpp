// Every platform that publishes, end to end through the publish worker: an account connected as
// its users connect it (a bot token, an app password, the OAuth round trip) and one post to it
// that goes out once through that platform's own API (its media protocol included) and ends
// published with the platform's id and address.
#include "common/domain/social/connector.hpp"
#include "common/domain/social/post.hpp"
#include "tests/support/api_checks.hpp"
#include "tests/support/media_checks.hpp"
#include "tests/support/post_fixtures.hpp"
#include "tests/support/social_fixtures.hpp"

#include <catch2/catch.hpp>

using namespace squawk::testing;
namespace social = squawk::social;
using nlohmann::json;

TEST_CASE_METHOD(HttpsPublishStack,
                 "a post to an account of each publishing platform goes out once through that "
                 "platform's API and ends published",
                 "[e2e][social][publish]") {
    const auto image = fake.media_url("photo.jpg", "image/jpeg", 200'000);
    const auto video =
        fake.store_media_file("short.mp4", "video/mp4", test_clip("mp4", 1, "720x1280"));
    size_t published = 0;
    for (const auto& platform : social::registered_platforms()) {
        if (!platform.limits.can_publish) continue;
        const std::string id(platform.id);
        INFO(id);
        const auto account = connect_platform_account(stack, fake, key, id, 1, image, video);
        json body = {{"content", "Hello " + id},
                     {"account_ids", json::array({account.id})},
                     {"platform_options", account.platform_options}};
        if (!account.media_urls.empty()) body["media_urls"] = account.media_urls;
        const auto created = stack.request("POST", "/v1/social/posts", body, key);
        check_success_envelope(created, 201);
        const auto done = wait_settled(stack, created.json["data"]["id"].get<long long>());
        INFO(done.targets[0].error.dump());
        CHECK(done.status == social::PostStatus::published);
        CHECK(done.targets[0].external_id);
        CHECK(fake.publishes().size() == ++published);
    }
    CHECK(published == 11);
}
