// OAuth tokens kept fresh against X's and YouTube's fakes and a real database: a token expiring
// within ten minutes is refreshed once (X rotates the refresh token; YouTube answers none and the
// stored one stays), one not yet due is left alone, and a refresh the platform refuses marks the
// account for reconnection with the reason while its stored credentials stay as they were.
#include "common/domain/social/token_refresher.hpp"
#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/domain/social/account_credentials.hpp"
#include "common/domain/social/account_repository.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "tests/support/connector_fixture.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;
using namespace squawk::social;
using namespace std::chrono_literals;

namespace {

struct RefreshFixture : testing::ConnectorFixture {
    RefreshFixture() {
        config.security.secret_key = crypto::hex(crypto::random_bytes(32));
        config.social = settings;
        auto& x = config.social.platforms["x"];
        x.client_id = fake.oauth_client_id();
        x.client_secret = fake.oauth_client_secret();
        x.authorize_url = fake.authorize_url("x");
        auto& youtube = config.social.platforms["youtube"];
        youtube.client_id = fake.oauth_client_id();
        youtube.client_secret = fake.oauth_client_secret();
        fake.control_platform(
            "x", "user",
            {{"id", "1590000000000000077"}, {"username", "refresh"}, {"name", "Refresh"}});
    }

    // Tokens for the fake's user through the consent page, as a connect gets them.
    Credentials granted_tokens() {
        auto x = connector("x");
        const auto client = oauth_client("x");
        const std::string verifier = crypto::random_token(48);
        fake.control_platform("x", "next_consent", {{"user_id", "1590000000000000077"}});
        const auto back =
            consent(x->authorize_url(client, "refresh-state", code_challenge_of(verifier)));
        REQUIRE(back.count("code"));
        auto grant = x->exchange_code(client, back.at("code"), verifier);
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }

    // YouTube's tokens for its fake's channel, through the consent page.
    Credentials youtube_tokens() {
        fake.control_platform("youtube", "channel",
                              {{"user_id", "108000000000000000077"},
                               {"id", "UCrefresh00000000000077a"},
                               {"title", "Refresh"}});
        auto youtube = connector("youtube");
        const auto client = oauth_client("youtube");
        const std::string verifier = crypto::random_token(48);
        fake.control_platform("youtube", "next_consent", {{"user_id", "108000000000000000077"}});
        const auto back =
            consent(youtube->authorize_url(client, "refresh-state", code_challenge_of(verifier)));
        REQUIRE(back.count("code"));
        auto grant = youtube->exchange_code(client, back.at("code"), verifier);
        REQUIRE_FALSE(grant.failure);
        return grant.credentials;
    }

    // An account of `platform` (X unless named) with `credentials` whose token expires at
    // `expires_at`.
    Account stored(const Credentials& credentials, time::TimePoint expires_at,
                   const std::string& platform = "x") {
        return db.pool().transaction([&](db::Session& s) {
            const auto ws = testing::insert_workspace(s);
            auto a = AccountRepository::insert(
                s, ws, platform, Identity{"1590000000000000077", "Refresh", "refresh"},
                seal_credentials(config.security, credentials));
            AccountRepository::set_token_expiry(s, a.id, expires_at);
            return a;
        });
    }

    Account reread(const Account& a) {
        return *db.pool().run([&](db::Session& s) {
            return AccountRepository::find(s, a.workspace_id, AccountView::live, a.public_id);
        });
    }

    testing::TestDatabase db;
    config::Config config;
    TokenRefresher refresher{db.pool(), config, http};
};

}  // namespace

TEST_CASE_METHOD(RefreshFixture,
                 "a token expiring within ten minutes is refreshed once and its refresh token "
                 "rotates",
                 "[integration][social][oauth]") {
    const auto tokens = granted_tokens();
    const auto account = stored(tokens, time::now() + 5min);
    const auto later = stored(granted_tokens(), time::now() + 1h);

    CHECK(refresher.run_once() == 1);
    const auto now_stored = open_credentials(config.security, reread(account).credentials_sealed);
    CHECK(now_stored.at("access_token") != tokens.at("access_token"));
    CHECK(now_stored.at("refresh_token") != tokens.at("refresh_token"));
    REQUIRE(token_expiry(now_stored));
    CHECK(*token_expiry(now_stored) > time::now() + 1h);
    CHECK(reread(account).token_valid);
    // The account that was not due kept its tokens; the refreshed one is not due any more.
    CHECK(refresher.run_once() == 0);
    CHECK(open_credentials(config.security, reread(later).credentials_sealed) ==
          open_credentials(config.security, later.credentials_sealed));

    // The rotated-out refresh token no longer works on the platform.
    const auto stale = connector("x")->refresh(oauth_client("x"), tokens);
    REQUIRE(stale.failure);
    CHECK(stale.failure->kind == FailureKind::refused);
}

TEST_CASE_METHOD(RefreshFixture,
                 "a refresh the platform refuses marks the account for reconnection with the "
                 "reason",
                 "[integration][social][oauth]") {
    const auto tokens = granted_tokens();
    const auto account = stored(tokens, time::now() + 1min);
    fake.revoke(tokens.at("refresh_token"));

    CHECK(refresher.run_once() == 0);
    const auto after = reread(account);
    CHECK_FALSE(after.token_valid);
    REQUIRE(after.last_error);
    CHECK(after.last_error->find("X refused to refresh the token") == 0);
    CHECK(after.last_error->find("reconnect the account") != std::string::npos);
    // Only a reconnect clears it: a health check that passes on the old access token does not.
    CHECK(after.reconnect_reason == after.last_error);
    CHECK(open_credentials(config.security, after.credentials_sealed) == tokens);
    // An invalid token is not tried again.
    CHECK(refresher.run_once() == 0);
}

TEST_CASE_METHOD(RefreshFixture,
                 "a refresh that answers no new refresh token keeps the stored one, which "
                 "refreshes again",
                 "[integration][social][oauth]") {
    const auto tokens = youtube_tokens();
    const auto account = stored(tokens, time::now() + 5min, "youtube");

    CHECK(refresher.run_once() == 1);
    const auto renewed = open_credentials(config.security, reread(account).credentials_sealed);
    CHECK(renewed.at("access_token") != tokens.at("access_token"));
    CHECK(renewed.at("refresh_token") == tokens.at("refresh_token"));
    CHECK(reread(account).token_valid);

    // Due again: the kept refresh token is the one YouTube still honours.
    db.pool().run([&](db::Session& s) {
        AccountRepository::set_token_expiry(s, account.id, time::now() + 1min);
    });
    CHECK(refresher.run_once() == 1);
    const auto again = open_credentials(config.security, reread(account).credentials_sealed);
    CHECK(again.at("access_token") != renewed.at("access_token"));
    CHECK(again.at("refresh_token") == tokens.at("refresh_token"));
}
