// Account metrics read by the sync pool against X's fake and a real database: each connected
// account is read once per reading period (the day's row takes the latest counts), an account
// whose platform did not answer is left for the next pass after the lease, and the workspace's
// follower series shows its own accounts' days only.
#include "common/domain/social/metrics_reader.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_metrics_repository.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "tests/support/connector_fixture.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::social;

namespace {

constexpr const char* kUserId = "1590000000000000088";

struct MetricsFixture : testing::ConnectorFixture {
    MetricsFixture() {
        config.security.secret_key = crypto::hex(crypto::random_bytes(32));
        config.social = settings;
        fake.control_platform("x", "user",
                              {{"id", kUserId},
                               {"username", "counted"},
                               {"name", "Counted"},
                               {"followers", 1234},
                               {"following", 56}});
    }

    // An X account connected through the consent page in a workspace of its own.
    Account stored() {
        auto x = connector("x");
        const std::string verifier = crypto::random_token(48);
        fake.control_platform("x", "next_consent", {{"user_id", kUserId}});
        const auto back = consent(
            x->authorize_url(oauth_client("x"), "metrics-state", code_challenge_of(verifier)));
        REQUIRE(back.count("code"));
        const auto grant = x->exchange_code(oauth_client("x"), back.at("code"), verifier);
        REQUIRE_FALSE(grant.failure);
        return db.pool().transaction([&](db::Session& s) {
            const auto ws = testing::insert_workspace(s);
            return AccountRepository::insert(s, ws, "x", Identity{kUserId, "Counted", "counted"},
                                             seal_credentials(config.security, grant.credentials));
        });
    }

    std::vector<FollowerSeries> series(const Account& a) {
        return db.pool().run([&](db::Session& s) {
            return AccountMetricsRepository::follower_series(s, a.workspace_id,
                                                             utc_day(time::now()));
        });
    }

    testing::TestDatabase db;
    config::Config config;
    MetricsReader reader{db.pool(), config, http};
};

}  // namespace

TEST_CASE_METHOD(MetricsFixture,
                 "an account's followers are read once per reading period into today's row",
                 "[integration][social]") {
    const auto account = stored();
    CHECK(reader.run_once() == 1);
    CHECK(reader.run_once() == 0);
    const auto found = series(account);
    REQUIRE(found.size() == 1);
    CHECK(found[0].account_id == account.public_id);
    CHECK(found[0].platform == "x");
    REQUIRE(found[0].days.size() == 1);
    CHECK(found[0].days[0].date == utc_day(time::now()));
    CHECK(found[0].days[0].followers == 1234);
    CHECK(fake.calls("/x/2/users/me").size() == 1);
}

TEST_CASE_METHOD(MetricsFixture,
                 "an account whose platform did not answer is read again only after the lease",
                 "[integration][social]") {
    const auto account = stored();
    fake.program("/x/2/users/me", {{{"status", 503}, {"body", nlohmann::json::object()}}});
    CHECK(reader.run_once() == 0);
    CHECK(reader.run_once() == 0);
    REQUIRE(series(account).size() == 1);
    CHECK(series(account)[0].days.empty());
    // The lease passes: the account is due again and read.
    db.pool().run(
        [&](db::Session& s) { AccountMetricsRepository::postpone(s, account.id, time::now()); });
    CHECK(reader.run_once() == 1);
    REQUIRE(series(account)[0].days.size() == 1);
}

TEST_CASE_METHOD(MetricsFixture, "a workspace's follower series holds only its own accounts",
                 "[integration][social]") {
    const auto mine = stored();
    const auto theirs = stored();
    CHECK(reader.run_once() == 2);
    const auto found = series(mine);
    REQUIRE(found.size() == 1);
    CHECK(found[0].account_id == mine.public_id);
    CHECK(found[0].account_id != theirs.public_id);
}
