#include "common/domain/social/oauth_connect_service.hpp"

#include "common/core/config/config.hpp"
#include "common/core/crypto/crypto.hpp"
#include "common/core/crypto/secret_key.hpp"
#include "common/core/error/api_error.hpp"
#include "common/core/text/concat.hpp"
#include "common/domain/social/oauth_client_config.hpp"
#include "common/domain/social/oauth_grant.hpp"
#include "common/domain/social/oauth_state_repository.hpp"
#include "common/domain/social/platform_failure_error.hpp"

namespace squawk::social {
namespace {

// RFC 7636 asks for 43 to 128 characters; 48 random bytes give 64.
constexpr size_t kVerifierBytes = 48;
constexpr size_t kStateBytes = 24;

[[noreturn]] void bad_state(const std::string& reason, const std::string& message) {
    throw ApiError(ErrorCode::InvalidRequest, message,
                   {{"parameter", "state"}, {"reason", reason}});
}

}  // namespace

OAuthClient OAuthConnectService::client_of(const PlatformFactory& platform) const {
    if (auto client = configured_oauth_client(config_, platform)) return *client;
    const std::string section(platform.settings_section);
    throw ApiError(
        ErrorCode::ValidationError,
        text::concat({platform.display_name,
                      " connects through OAuth, and this deployment has no application "
                      "registered with it: set [social.",
                      section, "] client_id and client_secret."}),
        {{"settings",
          {"social." + section + ".client_id", "social." + section + ".client_secret"}}});
}

AuthorizationStart OAuthConnectService::authorize(long long workspace_id,
                                                  const PlatformFactory& platform) {
    if (platform.connect_style != ConnectStyle::oauth)
        throw validation_error(
            {{"platform",
              text::concat({platform.display_name, " connects with POST /v1/social/connect/",
                            platform.id, " and its credentials, not through OAuth"})}});
    const auto client = client_of(platform);
    const std::string verifier = crypto::random_token(kVerifierBytes);
    AuthorizationStart start;
    start.state = crypto::random_token(kStateBytes);
    start.expires_at = time::now() + kAuthorizationLifetime;
    PendingConnect pending;
    pending.workspace_id = workspace_id;
    pending.platform = std::string(platform.id);
    pending.code_verifier_sealed =
        crypto::seal(crypto::secret_key_bytes(config_.security), verifier);
    pending.expires_at = start.expires_at;
    mysql_.run([&](db::Session& s) {
        OAuthStateRepository::insert(s, crypto::sha256_hex(start.state), pending);
    });
    auto connector = make_connector(platform.id, config_.social, http_);
    start.authorization_url =
        connector->authorize_url(client, start.state, code_challenge_of(verifier));
    return start;
}

GrantedAccount OAuthConnectService::complete(const PlatformFactory& platform,
                                             const AuthorizationAnswer& answer) {
    // Taken whatever follows: a state serves one redirect, granted or not.
    const auto pending = mysql_.transaction([&](db::Session& s) {
        return OAuthStateRepository::take(s, crypto::sha256_hex(answer.state));
    });
    if (!pending || pending->platform != platform.id)
        bad_state("unknown",
                  "This authorization is unknown or was already used; start again with GET "
                  "/v1/social/connect/{platform}/authorize.");
    if (pending->expires_at <= time::now())
        bad_state("expired",
                  "This authorization expired (after 10 minutes); start again with GET "
                  "/v1/social/connect/{platform}/authorize.");
    if (answer.error)
        throw ApiError(ErrorCode::InvalidRequest,
                       text::concat({platform.display_name, " did not grant access: ",
                                     answer.error_description.value_or(*answer.error)}),
                       {{"parameter", "error"}, {"reason", *answer.error}});
    if (!answer.code)
        throw ApiError(ErrorCode::InvalidRequest, "The redirect carries no code.",
                       {{"parameter", "code"}, {"reason", "missing"}});
    const auto client = client_of(platform);
    const std::string verifier =
        crypto::open(crypto::secret_key_bytes(config_.security), pending->code_verifier_sealed);
    auto connector = make_connector(platform.id, config_.social, http_);
    auto grant = connector->exchange_code(client, *answer.code, verifier);
    if (grant.failure) {
        if (grant.failure->field.empty()) grant.failure->field = "code";
        raise_platform_failure(platform, *grant.failure);
    }
    if (const auto missing = missing_scopes(grant.credentials, platform.oauth_scopes);
        !missing.empty())
        throw ApiError(ErrorCode::ConnectionScopeMissing,
                       text::concat({platform.display_name,
                                     " granted fewer permissions than posting needs; connect "
                                     "again and allow them all."}),
                       {{"missing_scopes", missing}, {"reconnect_required", true}});
    return AccountService(mysql_, redis_, config_, http_)
        .connect_granted(pending->workspace_id, platform, grant.credentials);
}

}  // namespace squawk::social
