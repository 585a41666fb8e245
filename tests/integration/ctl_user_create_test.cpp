// UserService, which `squawkctl user create` and the dashboard's sign-in call, against a real
// database.
#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/users/user_service.hpp"
#include "common/domain/workspace/workspace_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

users::NewUser member(long long workspace_id, std::string email, users::Role role) {
    return {workspace_id, std::move(email), role, "correct horse battery"};
}

nlohmann::json refused_fields(db::Session& s, const users::NewUser& request) {
    try {
        users::UserService::create(s, request);
    } catch (const ApiError& e) {
        CHECK(e.code() == ErrorCode::ValidationError);
        return e.details().at("fields");
    }
    FAIL("the user was created");
    return nullptr;
}

}  // namespace

TEST_CASE("a dashboard user is created in a workspace with a role and signs in with the password") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto owner = users::UserService::create(
            s, member(workspace.id, "Owner@Example.com", users::Role::owner));
        CHECK(owner.email == "owner@example.com");
        CHECK(owner.workspace_id == workspace.id);
        CHECK(owner.role == users::Role::owner);
        CHECK(owner.password_hash.starts_with("$argon2id$"));
        CHECK(owner.password_hash.find("correct horse") == std::string::npos);

        const auto signed_in =
            users::UserService::authenticate(s, "OWNER@example.com", "correct horse battery");
        REQUIRE(signed_in);
        CHECK(signed_in->id == owner.id);
        CHECK_FALSE(users::UserService::authenticate(s, "owner@example.com", "wrong password!"));
        CHECK_FALSE(users::UserService::authenticate(s, "nobody@example.com", "whatever at all"));
    });
}

TEST_CASE("an operator belongs to no workspace and a workspace role needs one") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto op = users::UserService::create(
            s, {std::nullopt, "ops@example.com", users::Role::operator_, "correct horse battery"});
        CHECK_FALSE(op.workspace_id);
        CHECK(op.role == users::Role::operator_);

        CHECK(refused_fields(s, {workspace.id, "ops2@example.com", users::Role::operator_,
                                 "correct horse battery"})
                  .contains("workspace_id"));
        CHECK(refused_fields(s, {std::nullopt, "dev@example.com", users::Role::developer,
                                 "correct horse battery"})
                  .contains("workspace_id"));
        CHECK(refused_fields(s,
                             member(workspace.id + 1000, "dev@example.com", users::Role::developer))
                  .contains("workspace_id"));
    });
}

TEST_CASE("a dashboard user is refused a taken email, a malformed email or a short password") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        users::UserService::create(s, member(workspace.id, "dev@example.com", users::Role::viewer));
        CHECK(refused_fields(s, member(workspace.id, "DEV@example.com", users::Role::viewer))
                  .contains("email"));
        CHECK(refused_fields(s, member(workspace.id, "not an email", users::Role::viewer))
                  .contains("email"));
        auto short_password = member(workspace.id, "new@example.com", users::Role::viewer);
        short_password.password = "short";
        CHECK(refused_fields(s, short_password).contains("password"));
    });
}

TEST_CASE("a dashboard session is found by its id until it is ended, and a new one replaces it") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto user = users::UserService::create(
            s, member(workspace.id, "dev@example.com", users::Role::developer));
        const auto first = users::UserService::start_session(s, user, std::nullopt);
        const auto resumed = users::UserService::resume(s, first.id);
        REQUIRE(resumed);
        CHECK(resumed->user.id == user.id);
        CHECK(resumed->csrf_token == first.csrf_token);
        CHECK(resumed->workspace_name == "acme");
        CHECK(s.query_one("SELECT COUNT(*) FROM dashboard_sessions WHERE id_hash = ?", {first.id})
                  ->integer(0) == 0);

        const auto second = users::UserService::start_session(s, user, first.id);
        CHECK(second.id != first.id);
        CHECK(second.csrf_token != first.csrf_token);
        CHECK_FALSE(users::UserService::resume(s, first.id));
        REQUIRE(users::UserService::resume(s, second.id));

        users::UserService::end_session(s, second.id);
        CHECK_FALSE(users::UserService::resume(s, second.id));
    });
}

TEST_CASE("a dashboard session idle too long or past its lifetime is over") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto user = users::UserService::create(
            s, member(workspace.id, "dev@example.com", users::Role::developer));
        const auto idle = users::UserService::start_session(s, user, std::nullopt);
        s.execute("UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?",
                  {db::time_param(time::now() - users::kSessionIdle - std::chrono::seconds(1)),
                   crypto::sha256_hex(idle.id)});
        CHECK_FALSE(users::UserService::resume(s, idle.id));

        const auto old = users::UserService::start_session(s, user, std::nullopt);
        s.execute(
            "UPDATE dashboard_sessions SET expires_at = ? WHERE id_hash = ?",
            {db::time_param(time::now() - std::chrono::seconds(1)), crypto::sha256_hex(old.id)});
        CHECK_FALSE(users::UserService::resume(s, old.id));
        CHECK(s.query_one("SELECT COUNT(*) FROM dashboard_sessions")->integer(0) == 0);
    });
}

TEST_CASE("a dashboard session records its last use at most once a minute") {
    testing::TestDatabase database;
    database.pool().run([](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto user = users::UserService::create(
            s, member(workspace.id, "dev@example.com", users::Role::developer));
        const auto session = users::UserService::start_session(s, user, std::nullopt);
        const auto last_seen = [&] {
            return s
                .query_one("SELECT last_seen_at FROM dashboard_sessions WHERE id_hash = ?",
                           {crypto::sha256_hex(session.id)})
                ->text(0);
        };
        const auto seen_ago = [&](std::chrono::seconds ago) {
            s.execute("UPDATE dashboard_sessions SET last_seen_at = ? WHERE id_hash = ?",
                      {db::time_param(time::now() - ago), crypto::sha256_hex(session.id)});
            return last_seen();
        };

        const auto recent = seen_ago(std::chrono::seconds(10));
        REQUIRE(users::UserService::resume(s, session.id));
        CHECK(last_seen() == recent);

        const auto stale = seen_ago(std::chrono::minutes(5));
        REQUIRE(users::UserService::resume(s, session.id));
        CHECK(last_seen() > stale);
    });
}
