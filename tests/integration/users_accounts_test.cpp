// Dashboard accounts against a real database: TOTP codes (RFC 6238's SHA-1 vectors), the second
// factor's enrollment and replay refusal, invitation tokens (single use, expiry, revocation,
// tenancy) and password changes ending every session.
#include "common/core/crypto/crypto.hpp"
#include "common/core/db/sql_text.hpp"
#include "common/core/error/api_error.hpp"
#include "common/domain/users/invitations.hpp"
#include "common/domain/users/second_factor.hpp"
#include "common/domain/users/totp.hpp"
#include "common/domain/users/user_service.hpp"
#include "common/domain/workspace/workspace_repository.hpp"
#include "tests/support/test_database.hpp"

#include <catch2/catch.hpp>

using namespace squawk;

namespace {

constexpr const char* kPassword = "correct horse battery";

time::TimePoint at_unix(long long seconds) {
    return time::TimePoint(std::chrono::seconds(seconds));
}

users::User owner_of(db::Session& s, long long workspace_id, const std::string& email) {
    return users::UserService::create(s, {workspace_id, email, users::Role::owner, kPassword});
}

long long count(db::Session& s, const std::string& sql, const db::Params& params) {
    return s.query_one(sql, params)->integer(0);
}

}  // namespace

TEST_CASE("TOTP codes are RFC 6238's SHA-1 test vectors") {
    const std::string secret = "12345678901234567890";
    const std::pair<long long, const char*> vectors[] = {
        {59, "94287082"},         {1111111109, "07081804"}, {1111111111, "14050471"},
        {1234567890, "89005924"}, {2000000000, "69279037"}, {20000000000, "65353130"},
    };
    for (const auto& [seconds, code] : vectors) {
        const long long step = users::totp_step(at_unix(seconds));
        CHECK(users::totp_code(secret, step, 8) == code);
        // Six digits are the last six of eight: the same truncated number, modulo 10^6.
        CHECK(users::totp_code(secret, step) == std::string(code).substr(2));
    }
    CHECK(users::totp_matching_step(secret, "287082", at_unix(59)) == 1);
    CHECK(users::totp_matching_step(secret, "287082", at_unix(59 + 30)) == 1);
    CHECK_FALSE(users::totp_matching_step(secret, "287082", at_unix(59 + 60)));
    CHECK_FALSE(users::totp_matching_step(secret, "28708", at_unix(59)));
}

TEST_CASE("base32 secrets round-trip and make an otpauth URI") {
    CHECK(users::base32_encode("12345678901234567890") == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    CHECK(users::base32_encode("f") == "MY");
    CHECK(users::base32_encode("foobar") == "MZXW6YTBOI");
    CHECK(users::base32_decode("mzxw 6ytb oi==") == std::optional<std::string>("foobar"));
    CHECK_FALSE(users::base32_decode("MZXW1"));
    const auto secret = crypto::random_bytes(users::kTotpSecretBytes);
    CHECK(users::base32_decode(users::base32_encode(secret)) == secret);
    CHECK(users::otpauth_uri("Squawk", "me+1@example.com", "foobar") ==
          "otpauth://totp/Squawk:me%2B1%40example.com?secret=MZXW6YTBOI&issuer=Squawk"
          "&algorithm=SHA1&digits=6&period=30");
}

TEST_CASE("a second factor is enabled by a right code and refuses a code used before") {
    testing::TestDatabase database;
    const users::SecondFactor factor(crypto::random_bytes(32));
    database.pool().run([&](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto user = owner_of(s, workspace.id, "owner@example.com");
        CHECK_FALSE(factor.enabled(s, user.id));
        const auto secret = factor.start_enrollment(s, user.id);
        CHECK(factor.pending(s, user.id) == secret);
        // The secret is stored sealed, never as it is.
        const auto stored =
            s.query_one("SELECT totp_pending_secret FROM dashboard_users WHERE id = ?", {user.id})
                ->text(0);
        CHECK(stored.find(users::base32_encode(secret)) == std::string::npos);

        const auto now = time::now();
        const long long step = users::totp_step(now);
        CHECK_FALSE(factor.confirm(s, user.id, users::totp_code(secret, step + 5), now));
        CHECK_FALSE(factor.enabled(s, user.id));
        REQUIRE(factor.confirm(s, user.id, users::totp_code(secret, step), now));
        CHECK(factor.enabled(s, user.id));
        CHECK_FALSE(factor.pending(s, user.id));

        // The enrolling code, and any of an earlier step, is used up.
        CHECK_FALSE(factor.verify(s, user.id, users::totp_code(secret, step), now));
        CHECK_FALSE(factor.verify(s, user.id, users::totp_code(secret, step - 1), now));
        CHECK(factor.verify(s, user.id, users::totp_code(secret, step + 1), now));
        CHECK_FALSE(factor.verify(s, user.id, users::totp_code(secret, step + 1), now));
        CHECK_FALSE(factor.verify(s, user.id, "000000x", now));

        factor.disable(s, user.id);
        CHECK_FALSE(factor.enabled(s, user.id));
        CHECK_FALSE(factor.verify(s, user.id, users::totp_code(secret, step + 1), now));
    });
}

TEST_CASE("an invitation token makes one user with its role, once, until it expires") {
    testing::TestDatabase database;
    database.pool().run([&](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto owner = owner_of(s, workspace.id, "owner@example.com");
        const auto issued = users::InvitationService::invite(
            s, workspace.id, owner.id, "Dev@Example.com", users::Role::developer);
        CHECK(issued.token.size() >= 40);
        CHECK(count(s, "SELECT COUNT(*) FROM dashboard_invitations WHERE token_hash = ?",
                    {crypto::sha256_hex(issued.token)}) == 1);
        CHECK(count(s, "SELECT COUNT(*) FROM dashboard_invitations WHERE token_hash = ?",
                    {issued.token}) == 0);
        REQUIRE(users::InvitationService::find_open(s, issued.token));
        CHECK(users::InvitationService::open_of_workspace(s, workspace.id).size() == 1);

        const auto user = users::InvitationService::accept(s, issued.token, kPassword);
        CHECK(user.email == "dev@example.com");
        CHECK(user.workspace_id == workspace.id);
        CHECK(user.role == users::Role::developer);
        CHECK(users::UserService::authenticate(s, "dev@example.com", kPassword));
        CHECK_FALSE(users::InvitationService::find_open(s, issued.token));
        CHECK(users::InvitationService::open_of_workspace(s, workspace.id).empty());
        try {
            users::InvitationService::accept(s, issued.token, kPassword);
            FAIL("a used token was accepted");
        } catch (const ApiError& e) {
            CHECK(e.code() == ErrorCode::NotFound);
        }

        const auto late = users::InvitationService::invite(s, workspace.id, owner.id,
                                                           "late@example.com", users::Role::viewer);
        s.execute("UPDATE dashboard_invitations SET expires_at = ? WHERE id = ?",
                  {db::time_param(time::now() - std::chrono::seconds(1)), late.invitation.id});
        CHECK_FALSE(users::InvitationService::find_open(s, late.token));
        CHECK_THROWS_AS(users::InvitationService::accept(s, late.token, kPassword), ApiError);
        CHECK_FALSE(users::UserRepository::find_by_email(s, "late@example.com"));
        CHECK_FALSE(users::InvitationService::find_open(s, "an unknown token"));
    });
}

TEST_CASE("an invitation is revoked only by its own workspace and refuses taken emails") {
    testing::TestDatabase database;
    database.pool().run([&](db::Session& s) {
        const auto acme = workspace::WorkspaceRepository::create(s, "acme");
        const auto other = workspace::WorkspaceRepository::create(s, "other");
        const auto owner = owner_of(s, acme.id, "owner@example.com");
        const auto issued = users::InvitationService::invite(s, acme.id, owner.id, "v@example.com",
                                                             users::Role::viewer);
        CHECK_FALSE(users::InvitationService::revoke(s, other.id, issued.invitation.id));
        CHECK(users::InvitationService::find_open(s, issued.token));
        CHECK(users::InvitationService::revoke(s, acme.id, issued.invitation.id));
        CHECK_FALSE(users::InvitationService::revoke(s, acme.id, issued.invitation.id));
        CHECK_FALSE(users::InvitationService::find_open(s, issued.token));

        try {
            users::InvitationService::invite(s, acme.id, owner.id, "OWNER@example.com",
                                             users::Role::viewer);
            FAIL("an invitation went to an email that has an account");
        } catch (const ApiError& e) {
            CHECK(e.code() == ErrorCode::ValidationError);
            CHECK(e.details().at("fields").contains("email"));
        }
        CHECK_THROWS_AS(users::InvitationService::invite(s, acme.id, owner.id, "not an email",
                                                         users::Role::viewer),
                        ApiError);
    });
}

TEST_CASE("a password change needs the current password and ends every session of the user") {
    testing::TestDatabase database;
    database.pool().run([&](db::Session& s) {
        const auto workspace = workspace::WorkspaceRepository::create(s, "acme");
        const auto user = owner_of(s, workspace.id, "owner@example.com");
        const auto first = users::UserService::start_session(s, user, std::nullopt);
        const auto second = users::UserService::start_session(s, user, std::nullopt);

        CHECK_THROWS_AS(
            users::UserService::change_password(s, user, "wrong password!", "a new password here"),
            ApiError);
        CHECK_THROWS_AS(users::UserService::change_password(s, user, kPassword, "short"), ApiError);
        CHECK(users::UserService::resume(s, first.id));

        users::UserService::change_password(s, user, kPassword, "a new password here");
        CHECK_FALSE(users::UserService::resume(s, first.id));
        CHECK_FALSE(users::UserService::resume(s, second.id));
        CHECK_FALSE(users::UserService::authenticate(s, "owner@example.com", kPassword));
        CHECK(users::UserService::authenticate(s, "owner@example.com", "a new password here"));
    });
}
