// Account and post metrics read by the sync pool against X's and TikTok's fakes and a real
// database: each connected account is read once per reading period (the day's row takes the
// latest counts), an account whose platform did not answer is left for the next pass after the
// lease, and the workspace's follower series shows its own accounts' days only. Published posts
// are read the same way for 30 days; a post on a platform that exposes no post counts is left
// alone for its window, and unpublished, deleted and old posts are not read.
#include "common/domain/social/metrics_reader.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_metrics_repository.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/post_metrics_repository.hpp"
#include "tests/support/connector_fixture.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::social;

namespace {

constexpr const char* kUserId = "1590000000000000088";
constexpr const char* kOpenId = "-000Counted0penId";

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
        fake.control_platform("tiktok", "user",
                              {{"open_id", kOpenId},
                               {"username", "counted"},
                               {"display_name", "Counted"},
                               {"follower_count", 77}});
    }

    // A TikTok account connected through the consent page in a workspace of its own.
    Account tiktok_account() {
        auto tiktok = connector("tiktok");
        const std::string verifier = crypto::random_token(48);
        fake.control_platform("tiktok", "next_consent", {{"user_id", kOpenId}});
        const auto back = consent(tiktok->authorize_url(oauth_client("tiktok"), "metrics-state",
                                                        code_challenge_of(verifier)));
        REQUIRE(back.count("code"));
        const auto grant = tiktok->exchange_code(oauth_client("tiktok"), back.at("code"), verifier);
        REQUIRE_FALSE(grant.failure);
        return db.pool().transaction([&](db::Session& s) {
            const auto ws = testing::insert_workspace(s);
            return AccountRepository::insert(s, ws, "tiktok",
                                             Identity{kOpenId, "Counted", "counted"},
                                             seal_credentials(config.security, grant.credentials));
        });
    }

    // A video on the TikTok fake with these counts: its id.
    std::string tiktok_video(long long views, long long likes) {
        return fake
            .control_platform("tiktok", "video",
                              {{"user_id", kOpenId},
                               {"title", "clip"},
                               {"like_count", likes},
                               {"comment_count", 3},
                               {"share_count", 2},
                               {"view_count", views}})["id"]
            .get<std::string>();
    }

    // A post with one target on `account`, in `status`, whose message `external_id` was
    // published `age` ago: the target's id.
    long long target_of(const Account& account, const std::string& external_id,
                        std::chrono::hours age, const std::string& status = "published") {
        const auto now = time::now();
        const auto at = db::time_param(now - age);
        return db.pool().transaction([&](db::Session& s) {
            s.execute(
                "INSERT INTO social_posts (workspace_id, status, content, content_hash,"
                " created_at, updated_at, published_at) VALUES (?, ?, 'Counted', ?, ?, ?, ?)",
                {account.workspace_id, status, std::string(64, 'c'), at, at, at});
            const auto post_id = s.query_one("SELECT LAST_INSERT_ID()")->integer(0);
            s.execute(
                "INSERT INTO social_post_targets (post_id, workspace_id, account_id, platform,"
                " status, scheduled_time, external_id, published_at, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                {post_id, account.workspace_id, account.id, account.platform, status, at,
                 external_id, at, at, at});
            return s.query_one("SELECT LAST_INSERT_ID()")->integer(0);
        });
    }

    std::vector<PostMetricsDay> post_days(long long target_id) {
        return db.pool().run(
            [&](db::Session& s) { return PostMetricsRepository::days(s, target_id); });
    }

    // The lease or the interval has passed: the target is due again.
    void make_due(long long target_id) {
        db.pool().run(
            [&](db::Session& s) { PostMetricsRepository::postpone(s, target_id, time::now()); });
    }

    size_t video_reads() { return fake.calls("/tiktok/v2/video/query/").size(); }

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
            return AccountMetricsRepository::follower_series(s, a.workspace_id, AccountView::live,
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

TEST_CASE_METHOD(MetricsFixture,
                 "a published post's counts are read into its day's row, again once it is due",
                 "[integration][social]") {
    const auto account = tiktok_account();
    const auto target = target_of(account, tiktok_video(900, 40), std::chrono::hours(2));
    reader.run_once();
    auto days = post_days(target);
    REQUIRE(days.size() == 1);
    CHECK(days[0].date == utc_day(time::now()));
    CHECK(days[0].metrics.video_views == 900);
    CHECK(days[0].metrics.likes == 40);
    CHECK(days[0].metrics.comments == 3);
    CHECK(days[0].metrics.shares == 2);
    CHECK_FALSE(days[0].metrics.followers);
    CHECK(video_reads() == 1);
    // Not due again before its interval.
    reader.run_once();
    CHECK(video_reads() == 1);

    // Due again the same day: the day's row is replaced, not added to.
    make_due(target);
    reader.run_once();
    CHECK(video_reads() == 2);
    CHECK(post_days(target).size() == 1);
}

TEST_CASE("a post is read hourly in its first day, every 6 hours in its first week, then daily",
          "[integration][social]") {
    using std::chrono::hours;
    CHECK(MetricsReader::post_interval(hours(0)) == hours(1));
    CHECK(MetricsReader::post_interval(hours(23)) == hours(1));
    CHECK(MetricsReader::post_interval(hours(24)) == hours(6));
    CHECK(MetricsReader::post_interval(hours(24 * 7 - 1)) == hours(6));
    CHECK(MetricsReader::post_interval(hours(24 * 7)) == hours(24));
    CHECK(MetricsReader::post_interval(hours(24 * 29)) == hours(24));
}

TEST_CASE_METHOD(MetricsFixture,
                 "a post on a platform that exposes no post counts is not asked again in its "
                 "window",
                 "[integration][social]") {
    // Telegram's Bot API tells nothing of a message's reach.
    const auto account = db.pool().transaction([&](db::Session& s) {
        const auto ws = testing::insert_workspace(s);
        return AccountRepository::insert(
            s, ws, "telegram", Identity{"-1001234567890", "Counted", "counted"},
            seal_credentials(config.security,
                             {{"bot_token", "123456:ABC-DEF"}, {"chat", "@counted"}}));
    });
    const auto target = target_of(account, "42", std::chrono::hours(1));
    reader.run_once();
    CHECK(post_days(target).empty());
    const bool pushed_out = db.pool().run([&](db::Session& s) {
        return s.query_one("SELECT metrics_due_at > ? FROM social_post_targets WHERE id = ?",
                           {db::time_param(time::now() + MetricsReader::kPostWindow -
                                           std::chrono::hours(24)),
                            target})
                   ->integer(0) == 1;
    });
    CHECK(pushed_out);
}

TEST_CASE_METHOD(MetricsFixture,
                 "a post whose platform did not answer is read again after the lease",
                 "[integration][social]") {
    const auto account = tiktok_account();
    const auto target = target_of(account, tiktok_video(900, 40), std::chrono::hours(1));
    fake.program("/tiktok/v2/video/query/",
                 {{{"status", 503}, {"body", nlohmann::json::object()}}});
    reader.run_once();
    CHECK(post_days(target).empty());
    reader.run_once();
    CHECK(video_reads() == 1);
    CHECK(post_days(target).empty());
    make_due(target);
    reader.run_once();
    CHECK(video_reads() == 2);
    CHECK(post_days(target).size() == 1);
}

TEST_CASE_METHOD(MetricsFixture,
                 "posts older than the window, unpublished, failed or deleted are not read",
                 "[integration][social]") {
    const auto account = tiktok_account();
    const auto video = tiktok_video(900, 40);
    const auto old = target_of(account, video, std::chrono::hours(24 * 31));
    const auto unpublished = target_of(account, video + "1", std::chrono::hours(1), "unpublished");
    const auto failed = target_of(account, video + "2", std::chrono::hours(1), "failed");
    const auto deleted = target_of(account, video + "3", std::chrono::hours(1));
    db.pool().run([&](db::Session& s) {
        s.execute(
            "UPDATE social_posts SET deleted_at = ? WHERE id ="
            " (SELECT post_id FROM social_post_targets WHERE id = ?)",
            {db::time_param(time::now()), deleted});
    });
    reader.run_once();
    CHECK(video_reads() == 0);
    for (const auto target : {old, unpublished, failed, deleted}) CHECK(post_days(target).empty());
}
