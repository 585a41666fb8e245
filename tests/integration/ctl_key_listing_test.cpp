// ApiKeyRepository::list, which `squawkctl key list` prints, against a real database.
#include "common/domain/auth/api_key.hpp"
#include "common/domain/workspace/workspace_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

TEST_CASE("a workspace's key list shows every key with its scopes and revocation, no secrets") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const auto mine = workspace::WorkspaceRepository::create(s, "mine");
        const auto other = workspace::WorkspaceRepository::create(s, "other");
        const auto all =
            auth::ApiKeyRepository::create(s, mine.id, auth::KeyType::live, {"*"}, std::nullopt);
        const auto limited = auth::ApiKeyRepository::create(s, mine.id, auth::KeyType::test,
                                                            {"jobs:read", "media:read"}, 30);
        auth::ApiKeyRepository::create(s, other.id, auth::KeyType::live, {"*"}, std::nullopt);
        REQUIRE(auth::ApiKeyRepository::revoke(s, limited.key.id));

        const auto keys = auth::ApiKeyRepository::list(s, mine.id);
        REQUIRE(keys.size() == 2);
        CHECK(keys[0].key.id == all.key.id);
        CHECK(keys[0].key.type == auth::KeyType::live);
        CHECK(keys[0].key.scopes == std::set<std::string>{"*"});
        CHECK(keys[0].key.prefix == all.secret.substr(0, 13));
        CHECK_FALSE(keys[0].revoked_at);
        CHECK_FALSE(keys[0].key.rate_limit);
        CHECK(keys[1].key.id == limited.key.id);
        CHECK(keys[1].key.type == auth::KeyType::test);
        CHECK(keys[1].key.scopes == std::set<std::string>{"jobs:read", "media:read"});
        CHECK(keys[1].key.rate_limit == 30);
        CHECK(keys[1].revoked_at);
        CHECK(keys[1].key.revoked);
        CHECK(auth::ApiKeyRepository::list(s, 424242).empty());
    });
}
