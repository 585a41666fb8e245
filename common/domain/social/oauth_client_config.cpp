#include "common/domain/social/oauth_client_config.hpp"

#include "common/core/config/config.hpp"
#include "common/core/text/concat.hpp"

namespace squawk::social {

std::optional<OAuthClient> configured_oauth_client(const config::Config& config,
                                                   const PlatformFactory& platform) {
    const auto configured = config.social.platforms.find(std::string(platform.settings_section));
    if (configured == config.social.platforms.end() || configured->second.client_id.empty() ||
        configured->second.client_secret.empty())
        return std::nullopt;
    OAuthClient client;
    client.client_id = configured->second.client_id;
    client.client_secret = configured->second.client_secret;
    client.authorize_url = configured->second.authorize_url;
    client.token_url = configured->second.token_url;
    client.redirect_uri =
        text::concat({config.api.public_base_url, "/social/connect/", platform.id, "/callback"});
    return client;
}

}  // namespace squawk::social
