#include "common/domain/social/social_settings.hpp"

#include "common/core/config/section_schema.hpp"
#include "common/domain/social/platform_sections.hpp"

namespace squawk::config {
namespace {

SectionSchema<PlatformSettings> platform_schema() {
    using P = PlatformSettings;
    return {{
                text("api_base_url", &P::api_base_url, false),
                integer("timeout_ms", &P::timeout_ms, 100, 120000),
                text("client_id", &P::client_id, false),
                text("client_secret", &P::client_secret, false),
                text("authorize_url", &P::authorize_url, false),
                text("token_url", &P::token_url, false),
                text("upload_url", &P::upload_url, false),
                boolean("organization_pages", &P::organization_pages),
            },
            {}};
}

}  // namespace

SectionSchema<SocialSettings> social_schema() {
    using S = SocialSettings;
    SectionSchema<S> schema{
        {
            integer("max_groups_per_workspace", &S::max_groups_per_workspace, 1, 10000),
            integer("max_accounts_per_group", &S::max_accounts_per_group, 1, 100000),
            integer("media_probe_timeout_ms", &S::media_probe_timeout_ms, 100, 120000),
            integer("media_download_timeout_ms", &S::media_download_timeout_ms, 100, 600000),
            integer("media_cache_bytes", &S::media_cache_bytes, 0, 1LL << 50),
            integer("media_cache_ttl_seconds", &S::media_cache_ttl_seconds, 1, 86400),
            integer("media_prefetch_lead_seconds", &S::media_prefetch_lead_seconds, 0, 86400),
        },
        // A deployment may point any platform elsewhere; unset, it talks to the public API.
        [](S& social, const std::string& section) {
            for (const auto& platform : platform_sections()) {
                auto& settings = social.platforms[std::string(platform.name)];
                if (settings.api_base_url.empty())
                    settings.api_base_url = std::string(platform.default_base_url);
                if (settings.authorize_url.empty())
                    settings.authorize_url = std::string(platform.default_authorize_url);
                if (settings.token_url.empty())
                    settings.token_url = std::string(platform.default_token_url);
                if (settings.upload_url.empty())
                    settings.upload_url = std::string(platform.default_upload_url);
                if (!settings.api_base_url.starts_with("https://") &&
                    !settings.api_base_url.starts_with("http://"))
                    bad_value(section + "." + std::string(platform.name) + ".api_base_url",
                              "expected an http or https URL");
            }
        }};
    for (const auto& platform : platform_sections()) {
        const std::string name(platform.name);
        nest(
            schema, name, [name](S& s) -> PlatformSettings& { return s.platforms[name]; },
            platform_schema());
    }
    return schema;
}

}  // namespace squawk::config
