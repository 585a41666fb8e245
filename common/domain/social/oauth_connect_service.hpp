// Connecting an account through the platform's OAuth consent page: authorize() sends the user
// there with a state bound to the workspace and platform (10 minutes, one use) and a PKCE
// challenge; complete() takes the platform's redirect back, trades the code for tokens and
// records the account. Raises ApiError.
#pragma once

#include "common/core/config/config_fwd.hpp"
#include "common/core/db/mysql_pool.hpp"
#include "common/core/http/http_client.hpp"
#include "common/core/redis/redis_pool.hpp"
#include "common/core/time/clock.hpp"
#include "common/domain/social/account_service.hpp"

#include <optional>
#include <string>

namespace squawk::social {

inline constexpr std::chrono::minutes kAuthorizationLifetime{10};

struct AuthorizationStart {
    std::string authorization_url;
    std::string state;
    time::TimePoint expires_at;
};

// The query the platform's redirect brings: a code and the state, or an error and the state.
struct AuthorizationAnswer {
    std::string state;
    std::optional<std::string> code;
    std::optional<std::string> error;
    std::optional<std::string> error_description;
};

class OAuthConnectService {
  public:
    OAuthConnectService(db::MysqlPool& mysql, redis::RedisPool& redis, const config::Config& config,
                        http::Client& http)
        : mysql_(mysql), redis_(redis), config_(config), http_(http) {}

    AuthorizationStart authorize(long long workspace_id, const PlatformFactory& platform);
    GrantedAccount complete(const PlatformFactory& platform, const AuthorizationAnswer& answer);

  private:
    // The platform's application as configured; 422 naming the settings when it has none.
    OAuthClient client_of(const PlatformFactory& platform) const;

    db::MysqlPool& mysql_;
    redis::RedisPool& redis_;
    const config::Config& config_;
    http::Client& http_;
};

}  // namespace squawk::social
